#include "pool.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../graph/fail.h"
#include "../harness/spawn.h"

/* A job slot: the parent fills the request, the child the result. */
struct pool_job {
	struct graph g;
	struct check_cfg_store cfg;
	struct pool_result r;
};

uint64_t pool_key(const struct verdict *v, const struct run_result *r)
{
	return verdict_is_finding(v->kind) ? oracle_signature(v, r, NULL, 0) : 0;
}

const struct verdict *pool_wanted(const struct check_result *r, const struct check_want *w, uint64_t *signature)
{
	for (unsigned i = 0; i <= r->nmore; i++) {
		const struct verdict *v = i ? &r->more[i - 1].v : &r->v;
		int match = w->key ? pool_key(v, &r->run) == w->key
				   : w->verdict[0] && !strcmp(verdict_name(v->kind), w->verdict) &&
					     (w->output < 0 || v->output == w->output);
		if (match) {
			*signature = i ? r->more[i - 1].signature : r->signature;
			return v;
		}
	}
	*signature = r->signature;
	return &r->v;
}

/* A child: one executor, jobs by slot number until the pipe closes. */
static int child_loop(const struct run_opts *ro, struct pool_job *job, int in, int out)
{
	struct executor x;
	char why[600];
	int ready = executor_init(&x, &ro->exec, why, sizeof why) == 0;
	unsigned char slot;
	while (read(in, &slot, 1) == 1) {
		struct check_cfg c;
		struct check_result r;
		check_cfg_load(&job->cfg, &c);
		memset(&job->r, 0, sizeof job->r);
		if (ready && check_graph(&x, &job->g, &c, &r, why, sizeof why) == 0) {
			const struct verdict *v = pool_wanted(&r, &c.want, &job->r.signature);
			job->r.ran = 1;
			job->r.kind = v->kind;
			job->r.what = v->what;
			job->r.key = pool_key(v, &r.run);
			job->r.res_rmse = v->res_rmse;
			job->r.ref_rmse = v->ref_rmse;
			job->r.tol = v->tol;
			snprintf(job->r.detail, sizeof job->r.detail, "%s", v->detail);
			executor_info(&x, "torch", job->r.torch, sizeof job->r.torch);
		} else {
			snprintf(job->r.detail, sizeof job->r.detail, "%.299s", why);
		}
		check_result_free(&r);
		if (write(out, &slot, 1) != 1)
			break;
	}
	if (ready)
		executor_free(&x);
	return 0;
}

/* What a new child needs: its job, its pipe ends, and the pipes of the
 * siblings started before it, which it closes (they are not its own). */
struct child_start {
	const struct run_opts *ro;
	struct pool *p;
	unsigned i;
	int in, out, in_parent, out_parent;
};

static int child_main(void *arg)
{
	const struct child_start *c = arg;
	close(c->in_parent);
	close(c->out_parent);
	for (unsigned k = 0; k < c->i; k++) {
		close(c->p->to[k]);
		close(c->p->from[k]);
	}
	return child_loop(c->ro, &c->p->jobs[c->i], c->in, c->out);
}

int pool_start(struct pool *p, unsigned n, const struct run_opts *ro, char *why, size_t len)
{
	memset(p, 0, sizeof *p);
	if (n < 1 || n > POOL_MAX)
		return fail(why, len, "pool of %u workers: 1 to %d", n, POOL_MAX);
	p->jobs = mmap(NULL, n * sizeof *p->jobs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->jobs == MAP_FAILED) {
		p->jobs = NULL;
		return fail(why, len, "mmap: %s", strerror(errno));
	}
	p->cap = n;
	for (unsigned i = 0; i < n; i++) {
		int a[2], b[2];
		if (pipe(a) || pipe(b))
			return fail(why, len, "pipe: %s", strerror(errno));
		struct child_start c = {ro, p, i, a[0], b[1], a[1], b[0]};
		struct spawn_opts o = SPAWN_OPTS;
		o.fn = child_main;
		o.arg = &c;
		pid_t pid = spawn(&o, why, len);
		close(a[0]);
		close(b[1]);
		if (pid < 0)
			return -1;
		p->pid[i] = pid;
		p->to[i] = a[1];
		p->from[i] = b[0];
		p->n++;
	}
	return 0;
}

int pool_check(struct pool *p, const struct graph *gs, unsigned count, const struct check_cfg *c,
	       struct pool_result *res)
{
	const struct graph *g[POOL_MAX];
	const struct check_cfg *cs[POOL_MAX];
	for (unsigned i = 0; i < count && i < POOL_MAX; i++) {
		g[i] = &gs[i];
		cs[i] = c;
	}
	return pool_run(p, g, cs, count < POOL_MAX ? count : POOL_MAX, res);
}

int pool_run(struct pool *p, const struct graph *const *gs, const struct check_cfg *const *cs, unsigned count,
	     struct pool_result *res)
{
	unsigned next = 0, done = 0;
	int idx[POOL_MAX];
	for (unsigned w = 0; w < p->n; w++)
		idx[w] = -1;
	while (done < count) {
		for (unsigned w = 0; w < p->n && next < count; w++) {
			if (idx[w] >= 0)
				continue;
			p->jobs[w].g = *gs[next];
			check_cfg_save(cs[next], &p->jobs[w].cfg);
			unsigned char slot = (unsigned char)w;
			if (write(p->to[w], &slot, 1) != 1)
				return -1;
			idx[w] = (int)next++;
		}
		struct pollfd pf[POOL_MAX];
		for (unsigned w = 0; w < p->n; w++)
			pf[w] = (struct pollfd){idx[w] >= 0 ? p->from[w] : -1, POLLIN, 0};
		if (poll(pf, p->n, -1) < 0 && errno != EINTR)
			return -1;
		for (unsigned w = 0; w < p->n; w++) {
			if (idx[w] < 0 || !(pf[w].revents & (POLLIN | POLLHUP)))
				continue;
			unsigned char slot;
			if (read(p->from[w], &slot, 1) != 1)
				return -1; /* the child died: never expected (the executor absorbs crashes) */
			res[idx[w]] = p->jobs[w].r;
			idx[w] = -1;
			done++;
		}
	}
	return 0;
}

void pool_stop(struct pool *p)
{
	for (unsigned w = 0; w < p->n; w++) {
		close(p->to[w]);
		close(p->from[w]);
	}
	for (unsigned w = 0; w < p->n; w++)
		waitpid(p->pid[w], NULL, 0);
	if (p->jobs)
		munmap(p->jobs, p->cap * sizeof *p->jobs);
	memset(p, 0, sizeof *p);
}
