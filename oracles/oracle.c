/* Verdicts. The policy, precisely, is docs/oracle.md; in short: hang, crash,
 * behaviour (per binding; these three in judge_errors.c), not-compiled, then
 * numeric and then alias (per binding and output), then strides; the first finding in that
 * order wins. Float values follow torch._dynamo.utils.same (torch 2.6) with
 * the fp64 run as fp64_ref. A near-invalid graph is judged on its errors only. */
#include "oracle.h"
#include "judge.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void oracle_default_opts(struct oracle_opts *o)
{
	memset(o, 0, sizeof *o);
	/* same()'s default tol is 1e-4; low precision needs more (bfloat16 has
	 * 8 mantissa bits). These are the defaults maintainers expect. */
	o->tol[DT_FLOAT32] = 1e-4;
	o->tol[DT_FLOAT64] = 1e-4;
	o->tol[DT_FLOAT16] = 1e-3;
	o->tol[DT_BFLOAT16] = 1e-2;
	o->tol[DT_COMPLEX64] = 1e-4;
	o->tol[DT_COMPLEX128] = 1e-4;
	o->check_strides = 1;
	o->check_aliases = 1;
}

/* What an output's alias (harness/result.h) says, in words. */
static void alias_words(unsigned alias, char *out, size_t n)
{
	if (alias)
		snprintf(out, n, "leaf %u's storage", alias - 1);
	else
		snprintf(out, n, "no leaf's storage");
}

/* Whether compiled output c shares another leaf's storage than eager's e
 * (or one where e shares none, or none where e does): a caller that updates
 * the result in place then changes an input eager leaves alone, or misses
 * the change eager makes. 1 and v filled when it does. */
static int compare_alias(const struct tensor_out *e, const struct tensor_out *c, unsigned b, unsigned k,
			 const struct oracle_opts *o, struct verdict *v)
{
	if (e->alias == c->alias)
		return 0;
	/* eager's aliasing is the op's promise only where the catalogue agrees with it */
	if (o->views_known && (k >= 64 || (int)(o->leaf_views >> k & 1) != (e->alias != 0)))
		return 0;
	char ew[40], cw[40];
	alias_words(e->alias, ew, sizeof ew);
	alias_words(c->alias, cw, sizeof cw);
	oracle_set(v, V_ALIAS, MM_ALIAS, (int)b, (int)k, "binding %u output %u: eager shares %s, compiled %s", b, k, ew,
		   cw);
	return 1;
}

static int same_shape(const struct tensor_out *a, const struct tensor_out *b)
{
	if (a->rank != b->rank)
		return 0;
	for (unsigned d = 0; d < a->rank; d++)
		if (a->shape[d] != b->shape[d])
			return 0;
	return 1;
}

/* Mode's output k at binding b when it returned values of e's shape, else NULL. */
static const struct tensor_out *mode_out(const struct run_result *r, enum run_mode mode, unsigned b, unsigned k,
					 const struct tensor_out *e)
{
	const struct mode_result *m = &r->m[mode][b];
	if (!m->ran || !m->ok || k >= m->nout)
		return NULL;
	const struct tensor_out *o = &m->out[k];
	return o->is_tensor && o->has_values && same_shape(o, e) && o->numel == e->numel ? o : NULL;
}

/* Eager's output k at binding b on nudged inputs, when it returned values of
 * e's dtype (floats or ints alike), else NULL. */
static const struct tensor_out *nudged_out(const struct run_result *r, unsigned b, unsigned k, const struct tensor_out *e)
{
	const struct tensor_out *n = mode_out(r, RM_NUDGED, b, k, e);
	return n && n->dtype == e->dtype && (dtype_is_inexact(e->dtype) ? n->f != NULL : n->i != NULL) ? n : NULL;
}

/* The reference for float output e, same()'s fp64_ref: float64 (an explicit
 * cast in the graph leaves it low precision: no reference then). */
static const struct tensor_out *fp64_ref(const struct run_result *r, unsigned b, unsigned k, const struct tensor_out *e)
{
	const struct tensor_out *f = mode_out(r, RM_FP64, b, k, e);
	return f && f->f && f->dtype == (dtype_is_complex(e->dtype) ? DT_COMPLEX128 : DT_FLOAT64) ? f : NULL;
}

/* The reference for int or bool output e: the fp64 run's ints of e's dtype,
 * for ints computed from floats (a cast, a comparison). */
static const struct tensor_out *int_ref(const struct run_result *r, unsigned b, unsigned k, const struct tensor_out *e)
{
	const struct tensor_out *f = mode_out(r, RM_FP64, b, k, e);
	return f && f->i && f->dtype == e->dtype ? f : NULL;
}

/* Exact comparison of int and bool values. A position where rounding is
 * seen to decide is no finding: eager itself differs from fp64 there (a
 * float rounding one way or the other before a cast or comparison), compiled
 * agrees with fp64, or eager on nudged inputs moves (ref and nudged, when
 * there). Where those show rounding deciding anywhere, which positions it
 * decides is chance: compiled's other differences are a finding only when
 * there are more of them than positions rounding was seen to decide (a
 * float16 value one ulp from a cast's boundary, rounded the other way by a
 * fused kernel, is as likely to sit where eager's nudge did not reach). */
static int compare_exact(const struct tensor_out *e, const struct tensor_out *c, const struct tensor_out *ref,
			 const struct tensor_out *nudged, unsigned b, unsigned k, struct verdict *v)
{
	uint64_t ndiff = 0, first = 0, excused = 0, decided = 0;
	double max_abs = 0;
	for (uint64_t i = 0; i < e->numel; i++) {
		int rounds = (ref && ref->i[i] != e->i[i]) || (nudged && nudged->i[i] != e->i[i]);
		decided += (uint64_t)rounds;
		if (e->i[i] == c->i[i])
			continue;
		if (rounds || (ref && ref->i[i] == c->i[i])) {
			excused++;
			continue;
		}
		if (!ndiff++)
			first = i;
		double d = fabs((double)e->i[i] - (double)c->i[i]);
		max_abs = d > max_abs ? d : max_abs;
	}
	if (ndiff <= decided)
		return 0;
	oracle_set(v, V_NUMERIC, MM_VALUES, (int)b, (int)k,
		   "binding %u output %u: %llu of %llu %s values differ where eager agrees with fp64, first at index %llu "
		   "(eager %lld, compiled %lld; %llu more differ where rounding decides, %llu positions rounding decides)",
		   b, k, (unsigned long long)ndiff, (unsigned long long)e->numel, dtype_info(e->dtype)->name,
		   (unsigned long long)first, (long long)e->i[first], (long long)c->i[first], (unsigned long long)excused,
		   (unsigned long long)decided);
	v->max_abs = max_abs;
	return 1;
}

static void fill_numbers(struct verdict *v, double max_abs, double max_rel, double res_rmse, double ref_rmse)
{
	v->max_abs = max_abs;
	v->max_rel = max_rel;
	v->res_rmse = res_rmse;
	v->ref_rmse = ref_rmse;
}

/* The class of a float: finite, NaN, +inf, -inf. */
static int float_class(double x) { return isfinite(x) ? 0 : x != x ? 1 : x > 0 ? 2 : 3; }

/* Whether a and b agree within tol, as torch.allclose(a, b, atol=tol, rtol=tol) does. */
static int within(double a, double b, double tol) { return fabs(a - b) <= tol + tol * fabs(b); }

/* What same()'s value rule needs over a set of positions. */
struct same_sums {
	uint64_t n;
	int close; /* every |e - c| within tol */
	double ref_sq, res_sq; /* sums of (f - e)^2 and (f - c)^2 */
};

static void same_add(struct same_sums *s, double ev, double cv, double fv, double tol)
{
	s->n++;
	s->close = s->close && within(ev, cv, tol);
	s->ref_sq += (fv - ev) * (fv - ev);
	s->res_sq += (fv - cv) * (fv - cv);
}

static double rmse(double sq, uint64_t n) { return n ? sqrt(sq / (double)n) : 0; }

/* same()'s bound with fp64_ref: what compiled's rmse vs fp64 may reach, multiplier x eager's + tol / 10. */
static double same_bound(const struct same_sums *s, double multiplier, double tol)
{
	return multiplier * rmse(s->ref_sq, s->n) + tol / 10.0;
}

/* same()'s rule: not every position within tol, and compiled's rmse beyond the bound. */
static int same_fails(const struct same_sums *s, double multiplier, double tol)
{
	return !s->close && rmse(s->res_sq, s->n) > same_bound(s, multiplier, tol);
}

/* How near s comes to failing that rule: compiled's rmse over the bound (0 for no positions). */
static double same_nearness(const struct same_sums *s, double multiplier, double tol)
{
	return s->n ? rmse(s->res_sq, s->n) / same_bound(s, multiplier, tol) : 0;
}

/* How many times eager's own move on nudged inputs a position's difference
 * may be and still be the problem's: nudges are 1 to 4 ulps with random
 * signs, so one draw may understate a position's sensitivity. At a
 * well-conditioned position eager moves by an ulp or so, and this many
 * times that is still far inside any tolerance. */
#define NUDGE_SLACK 16.0

/* Float values: non-finite positions one by one, then same()'s rule on the
 * positions finite in eager, compiled and (when usable) fp64. A finding that
 * same() makes there must also hold on the positions where eager agrees with
 * fp64 within cond_tol (the coarsest tolerance the graph computes in), when
 * eager agrees anywhere: where eager alone is far from fp64 while it is close
 * elsewhere (rounding next to a pole or a jump: tan, floor, a cast to int),
 * which way compiled rounds says nothing about the compiler. With nudged
 * (eager on nudged inputs; only for an output whose component has no step)
 * it must also hold on the positions where compiled differs from eager by
 * more than NUDGE_SLACK times eager's own move (where nudged eager is NaN or
 * Inf, it moves without bound): a difference that one rounding of an input explains, in a problem
 * that amplifies it (a mean cancelling +-3e38, layer_norm of a constant, a
 * log of a value rounding leaves either side of 0), says nothing about the
 * compiler either. */
static int compare_float(const struct tensor_out *e, const struct tensor_out *c, const struct tensor_out *f,
			 const struct tensor_out *nudged, double tol, double cond_tol, int stepped, unsigned b, unsigned k,
			 struct verdict *v)
{
	uint64_t nbad = 0, first_bad = 0;
	int close = 1, close10 = 1;
	double max_abs = 0, max_rel = 0;
	struct same_sums all = {.close = 1}, agreeing = {.close = 1}; /* agreeing: eager within cond_tol of fp64 */
	struct same_sums steady = {.close = 1}; /* beyond what nudging moves eager by */
	/* complex values are pairs, real then imaginary: each part is judged
	 * as a float of its own, NaN and Inf included */
	unsigned parts = dtype_parts(e->dtype);
	for (uint64_t i = 0; i < e->numel * parts; i++) {
		double ev = e->f[i], cv = c->f[i];
		int ec = float_class(ev), cc = float_class(cv), fc = f ? float_class(f->f[i]) : 0;
		if (ec || cc) {
			/* Compiled is at fault where it alone differs: eager agrees
			 * with fp64 (or, without fp64, eager is finite) and compiled
			 * is in another class. Where eager itself disagrees with fp64
			 * (its own overflow, an unstable spot), or changes class on
			 * nudged inputs (a log or sqrt of a value rounding leaves on
			 * either side of 0), nobody is judged. */
			int moves = nudged && float_class(nudged->f[i]) != ec;
			if (ec != cc && (f ? ec == fc : ec == 0) && !moves && !nbad++)
				first_bad = i;
			continue;
		}
		if (fc)
			continue;
		double d = fabs(ev - cv);
		max_abs = d > max_abs ? d : max_abs;
		if (cv != 0 && d / fabs(cv) > max_rel)
			max_rel = d / fabs(cv);
		/* torch.allclose(ref, res): |ref - res| <= atol + rtol * |res| */
		close = close && within(ev, cv, tol);
		close10 = close10 && within(ev, cv, 10 * cond_tol);
		if (f) {
			same_add(&all, ev, cv, f->f[i], tol);
			if (within(ev, f->f[i], cond_tol))
				same_add(&agreeing, ev, cv, f->f[i], tol);
			/* nudged NaN or Inf: eager's own class moves, as far as it can */
			if (nudged && isfinite(nudged->f[i]) && d > NUDGE_SLACK * fabs(nudged->f[i] - ev))
				same_add(&steady, ev, cv, f->f[i], tol);
		}
	}
	if (nbad) {
		uint64_t i = first_bad;
		oracle_set(v, V_NUMERIC, MM_NONFINITE, (int)b, (int)k,
			   "binding %u output %u: compiled differs in NaN/Inf at %llu of %llu positions where eager%s agree "
			   "(first at index %llu%s: eager %.6g, compiled %g)",
			   b, k, (unsigned long long)nbad, (unsigned long long)(e->numel * parts), f ? " and fp64" : " (finite)",
			   (unsigned long long)(i / parts), parts == 1 ? "" : i % 2 ? " imag" : " real", e->f[i], c->f[i]);
		fill_numbers(v, max_abs, max_rel, 0, 0);
		return 1;
	}
	if (!f) {
		/* A step op (floor, a comparison, a cast) turns a last-ulp
		 * difference upstream into a whole one; with no fp64 run to say
		 * which side rounds right, such a graph's difference is nobody's. */
		if (close || close10 || stepped)
			return 0;
		oracle_set(v, V_NUMERIC, MM_VALUES, (int)b, (int)k,
			   "binding %u output %u: max abs diff %.3g (max rel %.3g) beyond 10 x tol %g; no fp64 reference", b, k,
			   max_abs, max_rel, cond_tol);
		fill_numbers(v, max_abs, max_rel, 0, 0);
		return 1;
	}
	double multiplier = dtype_is_low_precision(c->dtype) ? 3.0 : 2.0;
	/* same(): noise dominates for small tensors and 1x1 kernels */
	if (e->numel < 1000 || (e->rank == 4 && e->shape[2] == 1 && e->shape[3] == 1) || tol >= 2e-2)
		multiplier = 3.0;
	if (close || !same_fails(&all, multiplier, tol) || (agreeing.n && !same_fails(&agreeing, multiplier, tol)) ||
	    (nudged && !same_fails(&steady, multiplier, tol))) {
		/* a pass: the least near of the sets that would all have to fail */
		double near = same_nearness(&all, multiplier, tol);
		if (agreeing.n)
			near = fmin(near, same_nearness(&agreeing, multiplier, tol));
		if (nudged)
			near = fmin(near, same_nearness(&steady, multiplier, tol));
		if (near > v->nearest) {
			v->nearest = near;
			v->nearest_output = (int)k;
		}
		return 0;
	}
	double ref_error = rmse(all.ref_sq, all.n), res_error = rmse(all.res_sq, all.n);
	oracle_set(v, V_NUMERIC, MM_VALUES, (int)b, (int)k,
		   "binding %u output %u: max abs diff %.3g, rmse vs fp64 compiled %.3g > %g x eager %.3g + %g", b, k, max_abs,
		   res_error, multiplier, ref_error, tol / 10.0);
	fill_numbers(v, max_abs, max_rel, res_error, ref_error);
	v->tol = tol;
	return 1;
}

/* t's dims of size > 1 in order of increasing stride (ties by dim): their count. */
static unsigned stride_order(const struct tensor_out *t, unsigned *dims)
{
	unsigned n = 0;
	for (unsigned d = 0; d < t->rank; d++)
		if (t->shape[d] > 1)
			dims[n++] = d;
	for (unsigned i = 1; i < n; i++) /* insertion sort: rank is small */
		for (unsigned j = i; j > 0 && t->stride[dims[j]] < t->stride[dims[j - 1]]; j--) {
			unsigned x = dims[j];
			dims[j] = dims[j - 1];
			dims[j - 1] = x;
		}
	return n;
}

/* Whether t's elements fill its storage span without gaps or overlap, in
 * some order of its dims (torch._prims_common.is_non_overlapping_and_dense):
 * the layouts Inductor promises to keep for outputs (exact strides). */
static int dense_layout(const struct tensor_out *t)
{
	unsigned dims[G_MAX_RANK], n = stride_order(t, dims);
	int64_t expected = 1;
	for (unsigned i = 0; i < n; i++) {
		if (t->stride[dims[i]] != expected)
			return 0;
		expected *= t->shape[dims[i]];
	}
	return 1;
}

/* Whether a and c order their dims of size > 1 alike by stride: all that
 * Inductor keeps of a non-dense output (its stride order), the values being
 * free (pytorch#130394). */
static int same_stride_order(const struct tensor_out *a, const struct tensor_out *c)
{
	unsigned da[G_MAX_RANK], dc[G_MAX_RANK], n = stride_order(a, da);
	if (stride_order(c, dc) != n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (da[i] != dc[i])
			return 0;
	return 1;
}

/* Whether c is dense eager layout e padded: the same stride order, no
 * stride smaller, gaps where e has none (Inductor's padding of strides for
 * alignment reaching an output, pytorch#152520). */
static int padded_layout(const struct tensor_out *e, const struct tensor_out *c)
{
	if (!same_stride_order(e, c) || dense_layout(c))
		return 0;
	for (unsigned d = 0; d < e->rank; d++)
		if (e->shape[d] > 1 && c->stride[d] < e->stride[d])
			return 0;
	return 1;
}

/* Output k at binding b: 1 and v filled on a finding (values, then
 * sharing). A stride mismatch is
 * only remembered in *stride (the lowest-ranked finding) when none is yet;
 * stride NULL: not checked (gradients: autograd promises no layout). */
static int compare_output(const struct run_result *r, unsigned b, unsigned k, const struct oracle_opts *o, int values,
			  struct verdict *v, struct verdict *stride)
{
	const struct tensor_out *e = &r->m[RM_EAGER][b].out[k], *c = &r->m[RM_COMPILED][b].out[k];
	if (e->is_tensor != c->is_tensor) {
		oracle_set(v, V_NUMERIC, MM_DTYPE, (int)b, (int)k, "binding %u output %u: eager returned %s, compiled %s", b, k,
			   e->is_tensor ? "a tensor" : "a non-tensor", c->is_tensor ? "a tensor" : "a non-tensor");
		return 1;
	}
	if (!e->is_tensor)
		return 0;
	if (e->dtype != c->dtype) {
		const struct dtype_info *ei = dtype_info(e->dtype), *ci = dtype_info(c->dtype);
		oracle_set(v, V_NUMERIC, MM_DTYPE, (int)b, (int)k, "binding %u output %u: dtype eager %s, compiled %s", b, k,
			   ei ? ei->name : "other", ci ? ci->name : "other");
		return 1;
	}
	if (!same_shape(e, c) || e->numel != c->numel) {
		char es[96] = "", cs[96] = "";
		for (unsigned d = 0; d < e->rank; d++)
			snprintf(es + strlen(es), sizeof es - strlen(es), d ? ", %lld" : "%lld", (long long)e->shape[d]);
		for (unsigned d = 0; d < c->rank; d++)
			snprintf(cs + strlen(cs), sizeof cs - strlen(cs), d ? ", %lld" : "%lld", (long long)c->shape[d]);
		oracle_set(v, V_NUMERIC, MM_SHAPE, (int)b, (int)k, "binding %u output %u: shape eager (%s), compiled (%s)", b, k, es,
			   cs);
		return 1;
	}
	int finding = 0, judged = values && e->has_values && c->has_values;
	if (judged && dtype_is_inexact(e->dtype) && e->f && c->f)
		finding = compare_float(e, c, fp64_ref(r, b, k, e),
				        o->nudge_floats && !o->stepped[k] ? nudged_out(r, b, k, e) : NULL, o->tol[e->dtype],
				        o->coarse_tol > o->tol[e->dtype] ? o->coarse_tol : o->tol[e->dtype], o->stepped[k], b, k,
				        v);
	else if (judged && e->dtype < DT_COUNT && !dtype_is_inexact(e->dtype) && e->i && c->i)
		finding = compare_exact(e, c, int_ref(r, b, k, e), o->nudge_ints ? nudged_out(r, b, k, e) : NULL, b, k, v);
	/* gradients: autograd promises no sharing; an empty output: nothing to write through it */
	if (!finding && o->check_aliases && stride && e->numel)
		finding = compare_alias(e, c, b, k, o, v);
	if (finding || !stride || stride->kind != V_PASS || !o->check_strides || !e->numel)
		return finding;
	int dense = dense_layout(e), padded = dense && padded_layout(e, c);
	if (padded && o->padded_known)
		return 0;
	for (unsigned d = 0; d < e->rank; d++)
		if (e->shape[d] > 1 && e->stride[d] != c->stride[d] && (dense || !same_stride_order(e, c))) {
			oracle_set(stride, V_STRIDE, MM_STRIDE, (int)b, (int)k,
				   "binding %u output %u: stride of dim %u (size %lld) eager %lld, compiled %lld%s", b, k, d,
				   (long long)e->shape[d], (long long)e->stride[d], (long long)c->stride[d],
				   !dense ? " (another order of eager's non-dense layout)" : padded ? " (" ORACLE_PADDED_LAYOUT ")" : "");
			break;
		}
	return 0;
}

/* A finding on an output that is not one of forward()'s own says what it is:
 * "backward gradient 0: ...", "written leaf 1: ...". */
static void label_output(struct verdict *v, const char *what, unsigned index)
{
	char detail[sizeof v->detail];
	/* the prefix takes at most 30 bytes; a long detail loses its end */
	snprintf(detail, sizeof detail, "%s %u: %.*s", what, index, (int)sizeof detail - 32, v->detail);
	memcpy(v->detail, detail, sizeof detail);
}

static void label_backward(struct verdict *v, unsigned grad)
{
	label_output(v, "backward gradient", grad);
	v->backward = 1;
	v->grad = (int)grad;
}

/* Output k at binding b, forward output or gradient, labelled: 1 and v
 * filled on a finding (a stride mismatch only in *stride, as compare_output
 * does), as compare[k] says. */
static int compare_at(const struct run_result *r, unsigned b, unsigned k, const uint8_t *compare, unsigned ncompare,
		      const struct oracle_opts *o, struct verdict *v, struct verdict *stride)
{
	const struct mode_result *e = &r->m[RM_EAGER][b];
	unsigned nfwd = e->nout - e->ngrad;
	int what = compare && k < ncompare ? compare[k] : ORACLE_COMPARE_ALL;
	if (what == ORACLE_COMPARE_NONE)
		return 0; /* tie-broken indices (and gradients through them) legitimately differ */
	int values = what != ORACLE_COMPARE_LAYOUT;
	if (k < nfwd) {
		if (!compare_output(r, b, k, o, values, v, stride))
			return 0;
		if (k + o->written >= nfwd)
			label_output(v, "written leaf", k + o->written - nfwd);
		return 1;
	}
	v->grads_judged++;
	if (!compare_output(r, b, k, o, values, v, NULL))
		return 0;
	label_backward(v, k - nfwd);
	return 1;
}

/* Whether binding b's outputs can be compared one by one: both modes
 * returned, as many outputs each. */
static int comparable(const struct run_result *r, unsigned b)
{
	const struct mode_result *e = &r->m[RM_EAGER][b], *c = &r->m[RM_COMPILED][b];
	return e->ran && c->ran && e->ok && c->ok && e->nout == c->nout;
}

static int compare_binding(const struct run_result *r, unsigned b, const uint8_t *compare, unsigned ncompare,
			   const struct oracle_opts *o, struct verdict *v, struct verdict *stride)
{
	const struct mode_result *e = &r->m[RM_EAGER][b], *c = &r->m[RM_COMPILED][b];
	if (!e->ran || !c->ran || !e->ok || !c->ok)
		return 0;
	if (e->nout != c->nout) {
		oracle_set(v, V_NUMERIC, MM_COUNT_OUT, (int)b, -1, "binding %u: eager returned %u outputs, compiled %u", b, e->nout,
			   c->nout);
		return 1;
	}
	for (unsigned k = 0; k < e->nout && k < RESULT_MAX_OUT; k++)
		if (compare_at(r, b, k, compare, ncompare, o, v, stride))
			return 1;
	return 0;
}

/* A verdict with nothing found yet. */
static void verdict_clear(struct verdict *v, uint8_t broken)
{
	memset(v, 0, sizeof *v);
	v->binding = v->output = v->grad = v->nearest_output = -1;
	v->broken = broken;
}

void oracle_judge(const struct run_result *r, const uint8_t *compare, unsigned ncompare, const struct oracle_opts *o,
		  struct verdict *v)
{
	struct oracle_opts defaults;
	if (!o) {
		oracle_default_opts(&defaults);
		o = &defaults;
	}
	verdict_clear(v, o->broken);
	if (r->hung) {
		oracle_judge_hang(r, v);
		return;
	}
	if (r->crashed) {
		oracle_judge_crash(r, v);
		return;
	}
	unsigned nbind = r->nbind < G_MAX_BIND ? r->nbind : G_MAX_BIND;
	if (o->broken) { /* nothing to compare but the errors */
		for (unsigned b = 0; b < nbind; b++)
			if (oracle_judge_expected_error(r, b, o->broken, !o->literal_errors, v))
				break;
		return;
	}
	for (unsigned b = 0; b < nbind; b++)
		if (oracle_judge_behaviour(r, b, v))
			return;
	for (unsigned b = 0; b < nbind; b++)
		if (r->m[RM_COMPILED][b].ran && r->m[RM_COMPILED][b].ok && !r->compiled_graphs) {
			oracle_set(v, V_NOT_COMPILED, MM_NONE, (int)b, -1,
				   "compiled mode produced no graph (Dynamo ran it eagerly); nothing was compared");
			return;
		}
	struct verdict stride = {.kind = V_PASS, .binding = -1, .output = -1, .grad = -1, .nearest_output = -1};
	for (unsigned b = 0; b < nbind; b++)
		if (compare_binding(r, b, compare, ncompare, o, v, &stride))
			return;
	if (stride.kind != V_PASS) {
		stride.grads_judged = v->grads_judged;
		*v = stride;
	}
}

unsigned oracle_judge_each(const struct run_result *r, const uint8_t *compare, unsigned ncompare,
			   const struct oracle_opts *o, struct verdict *out, unsigned cap)
{
	struct oracle_opts defaults;
	if (!o) {
		oracle_default_opts(&defaults);
		o = &defaults;
	}
	oracle_judge(r, compare, ncompare, o, &out[0]);
	if (!cap || (out[0].kind != V_NUMERIC && out[0].kind != V_STRIDE && out[0].kind != V_ALIAS) || out[0].output < 0)
		return cap && verdict_is_finding(out[0].kind);
	unsigned n = 0, nbind = r->nbind < G_MAX_BIND ? r->nbind : G_MAX_BIND, nout = 0;
	for (unsigned b = 0; b < nbind; b++)
		if (comparable(r, b) && r->m[RM_EAGER][b].nout > nout)
			nout = r->m[RM_EAGER][b].nout;
	for (unsigned k = 0; k < nout && k < RESULT_MAX_OUT && n < cap; k++) {
		struct verdict v, stride;
		verdict_clear(&v, o->broken);
		verdict_clear(&stride, o->broken);
		int found = 0;
		for (unsigned b = 0; b < nbind && !found; b++)
			found = comparable(r, b) && k < r->m[RM_EAGER][b].nout &&
				compare_at(r, b, k, compare, ncompare, o, &v, &stride);
		if (found)
			out[n++] = v;
		else if (stride.kind != V_PASS)
			out[n++] = stride;
	}
	return n;
}
