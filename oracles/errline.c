#include "errline.h"
#include <ctype.h>
#include <string.h>

/* "RuntimeError: ...", "torch._inductor.exc.LoweringException: ...": a
 * dotted identifier ending in Error or Exception, then a colon. */
static int looks_like_error(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	size_t start = i;
	while (i < len && (is_ident_char((unsigned char)s[i]) || s[i] == '.'))
		i++;
	if (i == start || i >= len || s[i] != ':')
		return 0;
	static const char *const suffixes[] = {"Error", "Exception"};
	for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
		size_t sl = strlen(suffixes[k]);
		if (i - start >= sl && !memcmp(s + i - sl, suffixes[k], sl))
			return 1;
	}
	return 0;
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

void oracle_error_line(const char *msg, const char **line, size_t *len)
{
	const char *wrapper = NULL, *next = NULL;
	size_t wrapper_len = 0, next_len = 0;
	for (const char *s = msg; *s;) {
		size_t l = strcspn(s, "\n");
		if (!is_blank(s, l)) {
			if (!wrapper) {
				size_t t = l;
				while (t && isspace((unsigned char)s[t - 1]))
					t--;
				if (s[t - 1] != ':') {
					*line = s;
					*len = l;
					return;
				}
				wrapper = s;
				wrapper_len = l;
			} else {
				if (looks_like_error(s, l)) {
					*line = s;
					*len = l;
					return;
				}
				if (!next) {
					next = s;
					next_len = l;
				}
			}
		}
		s += l + (s[l] == '\n');
	}
	*line = next ? next : wrapper ? wrapper : msg;
	*len = next ? next_len : wrapper ? wrapper_len : 0;
}
