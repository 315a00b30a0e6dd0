/* Rules and choosers of the misc family that live outside misc.c (which
 * holds the table): interpolation in misc_interp.c, rearrangements (pixel
 * shuffle, tril/triu, flip, roll, rot90, diagonal, diag_embed) in misc_layout.c. */
#ifndef PT2FUZZ_MISC_OPS_H
#define PT2FUZZ_MISC_OPS_H
#include "../opkit.h"

bool misc_infer_pixel_shuffle(struct infer_io *io);
bool misc_infer_pixel_unshuffle(struct infer_io *io);
bool misc_choose_pixel_shuffle(struct chooser *c, struct op_choice *ch);
bool misc_choose_pixel_unshuffle(struct chooser *c, struct op_choice *ch);
bool misc_infer_tri(struct infer_io *io);
bool misc_choose_tri(struct chooser *c, struct op_choice *ch);
bool misc_infer_flip(struct infer_io *io);
bool misc_choose_flip(struct chooser *c, struct op_choice *ch);
bool misc_infer_roll(struct infer_io *io);
bool misc_infer_roll2(struct infer_io *io);
bool misc_infer_roll_flat(struct infer_io *io);
bool misc_choose_roll(struct chooser *c, struct op_choice *ch);
bool misc_choose_roll2(struct chooser *c, struct op_choice *ch);
bool misc_choose_roll_flat(struct chooser *c, struct op_choice *ch);
bool misc_infer_rot90(struct infer_io *io);
bool misc_choose_rot90(struct chooser *c, struct op_choice *ch);
bool misc_infer_diagonal(struct infer_io *io);
bool misc_infer_diag_embed(struct infer_io *io);
bool misc_choose_diagonal(struct chooser *c, struct op_choice *ch);
bool misc_choose_diag_embed(struct chooser *c, struct op_choice *ch);

extern const char *const misc_interp_modes[];
bool misc_infer_interp_size(struct infer_io *io);
bool misc_choose_interp_size(struct chooser *c, struct op_choice *ch);
bool misc_infer_interp_scale(struct infer_io *io);
bool misc_choose_interp_scale(struct chooser *c, struct op_choice *ch);
bool misc_infer_interp_size_ac(struct infer_io *io);
bool misc_choose_interp_size_ac(struct chooser *c, struct op_choice *ch);
bool misc_infer_interp_scale_ac(struct infer_io *io);
bool misc_choose_interp_scale_ac(struct chooser *c, struct op_choice *ch);
bool misc_infer_upsample(struct infer_io *io);
bool misc_choose_upsample(struct chooser *c, struct op_choice *ch);
bool misc_infer_upsample_nearest(struct infer_io *io);
bool misc_choose_upsample_nearest(struct chooser *c, struct op_choice *ch);
bool misc_infer_upsample_bilinear(struct infer_io *io);
bool misc_choose_upsample_bilinear(struct chooser *c, struct op_choice *ch);

extern const char *const misc_grid_modes[];
bool misc_infer_grid_sample(struct infer_io *io);
bool misc_choose_grid_sample(struct chooser *c, struct op_choice *ch);
bool misc_infer_grid_sampler(struct infer_io *io);
bool misc_choose_grid_sampler(struct chooser *c, struct op_choice *ch);

#endif
