#include "real.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t real_bits(double x)
{
	int64_t b;
	memcpy(&b, &x, sizeof b);
	return b;
}

double real_value(int64_t bits)
{
	double x;
	memcpy(&x, &bits, sizeof x);
	return x;
}

void real_format(char *buf, size_t n, double x, int python)
{
	if (isnan(x) || isinf(x)) {
		const char *s = isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
		snprintf(buf, n, python ? "float('%s')" : "%s", s);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	if (!strpbrk(buf, ".e") && strlen(buf) + 3 <= n)
		strcat(buf, ".0"); /* "-0" or "3" would be Python ints: -0 is 0 */
}

size_t real_parse(const char *s, double *x)
{
	static const struct {
		const char *word;
		double value;
	} words[] = {{"-inf", -INFINITY}, {"inf", INFINITY}, {"nan", NAN}};
	for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t l = strlen(words[i].word);
		if (!strncmp(s, words[i].word, l)) {
			*x = words[i].value;
			return l;
		}
	}
	/* Decimal only: strtod alone would also take hex floats, "infinity" and "nan(...)". */
	size_t l = strspn(s, "0123456789.eE+-");
	if (!l || !strchr("0123456789.-+", s[0]))
		return 0;
	char tok[64];
	if (l >= sizeof tok)
		return 0;
	memcpy(tok, s, l);
	tok[l] = 0;
	char *end;
	*x = strtod(tok, &end);
	return end == tok ? 0 : (size_t)(end - tok);
}

enum real_class real_class_of(double x)
{
	if (isnan(x))
		return RC_NAN;
	if (isinf(x))
		return x > 0 ? RC_POS_INF : RC_NEG_INF;
	if (x == 0)
		return signbit(x) ? RC_NEG_ZERO : RC_ZERO;
	double a = fabs(x);
	if (a < 1e-4)
		return RC_TINY;
	if (a > 1e6)
		return RC_HUGE;
	return a * 4 == floor(a * 4) ? RC_ORDINARY : RC_FRACTION;
}

static const double ordinary[] = {0.5, 1.0, 2.0, 3.0, 0.25, 1.5, 10.0, 100.0};
static const double fraction[] = {1.0 / 3, 1.0 / 300, 0.1, 2.0 / 3, 0.7, 1e-3, 3.14159265358979};
static const double tiny[] = {1e-6, 1e-12, 1e-30, 1.1754943508222875e-38, 1e-5, 5e-324};
static const double huge[] = {1e10, 3e38, 3.4028234663852886e38, 1e300, 65504.0 * 32, 1e7};

/* Draw weights of the classes: ordinary values most often. */
static const unsigned class_weight[RC_COUNT] = {
	[RC_ORDINARY] = 8, [RC_FRACTION] = 4, [RC_TINY] = 3, [RC_HUGE] = 2, [RC_ZERO] = 1,
	[RC_NEG_ZERO] = 2, [RC_POS_INF] = 1, [RC_NEG_INF] = 1, [RC_NAN] = 1};

static double pick(struct rng *r, const double *xs, size_t n) { return xs[rng_below(r, n)]; }

int64_t real_draw(struct rng *r, unsigned mask, int sign)
{
	unsigned total = 0;
	for (unsigned c = 0; c < RC_COUNT; c++)
		total += (mask >> c & 1) ? class_weight[c] : 0;
	if (!total)
		return real_bits(0.0);
	uint64_t at = rng_below(r, total);
	unsigned c = 0;
	while (!(mask >> c & 1) || at >= class_weight[c]) {
		at -= (mask >> c & 1) ? class_weight[c] : 0;
		c++;
	}
	double x;
	switch ((enum real_class)c) {
	case RC_ORDINARY: x = pick(r, ordinary, sizeof ordinary / sizeof *ordinary); break;
	case RC_FRACTION: x = pick(r, fraction, sizeof fraction / sizeof *fraction); break;
	case RC_TINY: x = pick(r, tiny, sizeof tiny / sizeof *tiny); break;
	case RC_HUGE: x = pick(r, huge, sizeof huge / sizeof *huge); break;
	case RC_ZERO: return real_bits(0.0);
	case RC_NEG_ZERO: return real_bits(-0.0);
	case RC_POS_INF: return real_bits(INFINITY);
	case RC_NEG_INF: return real_bits(-INFINITY);
	default: return real_bits(NAN);
	}
	if (sign < 0 || (sign == 0 && rng_chance(r, 40)))
		x = -x;
	return real_bits(x);
}
