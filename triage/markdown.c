#include "markdown.h"
#include <string.h>

static size_t longest_backtick_run(const char *s, size_t len)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

static void backticks(FILE *f, size_t k)
{
	while (k--)
		fputc('`', f);
}

void md_fence(FILE *f, const char *lang, const char *s, size_t len)
{
	size_t k = longest_backtick_run(s, len) + 1;
	k = k < 3 ? 3 : k;
	backticks(f, k);
	fprintf(f, "%s\n", lang);
	fwrite(s, 1, len, f);
	if (len && s[len - 1] != '\n')
		fputc('\n', f);
	backticks(f, k);
	fputs("\n\n", f);
}

void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|&#~!@", *s)) /* @: no GitHub mentions */
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
}

void md_code(FILE *f, const char *s)
{
	size_t len = strlen(s), k = longest_backtick_run(s, len) + 1;
	int pad = len && (s[0] == '`' || s[len - 1] == '`');
	backticks(f, k);
	fputs(pad ? " " : "", f);
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	fputs(pad ? " " : "", f);
	backticks(f, k);
}
