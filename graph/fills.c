#include "fills.h"

const struct fill_row fill_rows[FILL_COUNT] = {
	[FILL_NORMAL] = {.name = "normal", .draw = "torch.randn(%S, generator=gen)", .made = DT_FLOAT32},
	[FILL_POSITIVE] = {.name = "positive", .draw = "(torch.rand(%S, generator=gen) + 0.5)", .made = DT_FLOAT32},
	[FILL_RANGE] = {.name = "range", .bounds = 1, .draw = "torch.randint(%L, %H, %S, generator=gen)", .made = DT_INT64},
	[FILL_PERM] = {.name = "perm", .bounds = 1, .draw = "torch.randperm(%H, generator=gen)[:%N].reshape(%S)",
		       .made = DT_INT64}, /* distinct integers */
	[FILL_CONST] = {.name = "const", .bounds = 1, .draw = "torch.full(%S, %C, dtype=torch.float64)", .made = DT_FLOAT64},
	[FILL_SPECIAL] = {.name = "special", .draw = "special(%S, gen)", .made = DT_FLOAT64}, /* graph/emit_special.py */
};

/* The expanded layout is drawn with dim 0 of size 1 (stride 0: its rows are
 * equal); same and view are drawn (so the other inputs' draws stay put),
 * then their partner's memory is passed instead (graph_input_partner). */
const struct layout_row layout_rows[IL_COUNT] = {
	[IL_CONTIGUOUS] = {.name = "contiguous", .rank_max = G_MAX_RANK, .contig = 1},
	[IL_CHANNELS_LAST] = {.name = "channels_last", .rank_min = 4, .rank_max = 4,
			      .suffix = ".contiguous(memory_format=torch.channels_last)"},
	[IL_CHANNELS_LAST_3D] = {.name = "channels_last_3d", .rank_min = 5, .rank_max = 5,
				 .suffix = ".contiguous(memory_format=torch.channels_last_3d)"},
	[IL_TRANSPOSED] = {.name = "transposed", .rank_min = 2, .rank_max = G_MAX_RANK,
			   .suffix = ".transpose(-1, -2).contiguous().transpose(-1, -2)"},
	[IL_PERMUTED] = {.name = "permuted", .rank_min = 2, .rank_max = G_MAX_RANK,
			 .suffix = ".permute(%R).contiguous().permute(%R)"},
	[IL_OFFSET] = {.name = "offset", .rank_max = G_MAX_RANK, .contig = 1,
		       .remake = "torch.cat((%X.new_zeros(3), %X.flatten()))[3:].view(%X.shape)", .about = "at storage offset 3"},
	[IL_EXPANDED] = {.name = "expanded", .rank_min = 1, .rank_max = G_MAX_RANK, .overlap = 1, .one_row = 1,
			 .suffix = ".expand(%S)"},
	[IL_STRIDED] = {.name = "strided", .rank_min = 1, .rank_max = G_MAX_RANK,
			.remake = "torch.stack((%X, torch.zeros_like(%X)), -1).flatten(-2)[..., ::2]",
			.about = "every other element"},
	/* the partner's rank, contig and overlap: graph_set_layout */
	[IL_SAME] = {.name = "same", .rank_max = G_MAX_RANK, .share = "", .about = "the same tensor"},
	[IL_VIEW] = {.name = "view", .rank_max = G_MAX_RANK, .share = "[...]", .about = "another view of its memory"},
	[IL_NUMBER] = {.name = "number", .contig = 1, .suffix = ".item()"}, /* a rank-0 tensor's value */
};

void fills_spell(FILE *f, const char *fmt, fills_word_fn *word, const void *ctx)
{
	for (const char *p = fmt ? fmt : ""; *p; p++) {
		if (*p == '%' && p[1])
			word(f, *++p, ctx);
		else
			fputc(*p, f);
	}
}

int fill_has_bounds(unsigned fill) { return fill < FILL_COUNT && fill_rows[fill].bounds; }

