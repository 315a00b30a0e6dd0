/* One program ready to run and judge: the emitted text with what judging it
 * needs (which outputs to compare, the op set, the configuration). check.c
 * makes one per check; blame.c keeps the last few a worker ran, to replay
 * them in fresh workers. Also the result of a check. */
#ifndef PT2FUZZ_CHECK_JOB_H
#define PT2FUZZ_CHECK_JOB_H
#include "../graph/graph.h"
#include "../harness/executor.h"
#include "../oracles/oracle.h"

#define CHECK_MAX_INDUCTOR 8

/* Which of a check's findings a reduction follows (pool_wanted): the one
 * whose reduction key (pool_key) is key; while key is 0, the first whose
 * verdict is named verdict ("alias"), at output `output` where that is >= 0;
 * with no verdict named, or none matching, the check's own verdict. A
 * graph's second finding (check_result.more) is then reduced as itself, not
 * as the first. */
struct check_want {
	uint64_t key;
	char verdict[32];
	int output;
};

struct check_cfg {
	const char *backend;      /* "inductor" */
	const char *compile_mode; /* NULL, "max-autotune", ... */
	const char *dynamic;      /* "marks" */
	unsigned modes;           /* bits of enum run_mode */
	const char *inductor[CHECK_MAX_INDUCTOR]; /* "name=value" settings */
	unsigned ninductor;
	int backward;             /* backward mode: gradients of the grad leaves are compared too */
	int hunt_known;           /* --hunt-known: values after a draw compared even where draws differ (draws.h) */
	/* enum check_pin: backend and dynamic given on the command line, so over a
	 * graph's own (a compile_mode given is one too) */
	unsigned pinned;
	struct oracle_opts oracle;
	/* A hang is run again alone, given longer, when that ends by this time
	 * (protocol_now_ms's clock; 0: never; HANG_RERUN_ANY_TIME: no bound):
	 * pipeline/hang_confirm.h. */
	int64_t hang_rerun_until_ms;
	/* Its runs end by this time (protocol_now_ms's clock; 0: no bound): a run
	 * cut there fails the check (-1), as not run (exec_request's cut_ms). */
	int64_t cut_ms;
	struct check_want want;
};

#define HANG_RERUN_ANY_TIME INT64_MAX

enum check_pin { PIN_BACKEND = 1, PIN_DYNAMIC = 2 };

/* A check_cfg with its strings inside: it outlives the caller's (a pool's
 * job slot, a history entry). */
struct check_cfg_store {
	char backend[64], mode[64], dynamic[16];
	char inductor[CHECK_MAX_INDUCTOR][128];
	unsigned ninductor, modes, pinned;
	int backward, hunt_known;
	int64_t cut_ms;
	struct oracle_opts oracle;
	struct check_want want;
};

/* The configuration g runs under: its own mode, dynamic and backend where c
 * does not pin them (the mode only for the inductor backend), backward mode
 * where c or g's configuration (mode.backward) says so. Its settings
 * are the program's CONFIG; c's pinned settings go over them in the worker. */
struct check_cfg check_cfg_for_graph(const struct check_cfg *c, const struct graph *g);

/* Whether verdict v of g's run is Dynamo breaking the graph where g's
 * configuration asks for fullgraph: compiled mode raised an
 * torch._dynamo.exc.Unsupported, an error by design then, not a finding
 * (behaviour, or error-mismatch where eager raised too). */
int check_fullgraph_break(const struct graph *g, const struct run_result *run, const struct verdict *v);

void check_cfg_save(const struct check_cfg *c, struct check_cfg_store *s);
/* c's strings point into s. */
void check_cfg_load(const struct check_cfg_store *s, struct check_cfg *c);

struct check_job {
	char *program;            /* the emitted program (malloc'd, NUL-terminated) */
	size_t len;
	unsigned nbind;           /* its bindings (0: unknown) */
	uint8_t compare[RESULT_MAX_OUT]; /* enum oracle_compare per output (oracle_judge) */
	unsigned ncompare;
	int compare_all;          /* a program text: every output is compared */
	struct check_cfg_store cfg; /* as judged: with the graph's coarse_tol and broken constraint */
	const struct graph *g;    /* the graph it came from; NULL for a program text */
	unsigned time_factor;     /* exec_request's: its configuration's slow compiles (0: 1) */
};

/* How a verdict that may be another program's fault was confirmed (blame.h). */
enum blame_status {
	BLAME_NONE,        /* nothing to confirm */
	BLAME_CONFIRMED,   /* it reproduced alone in a fresh worker (or ran first in one) */
	BLAME_MOVED,       /* it did not; an earlier program of its worker was the cause (culprit) */
	BLAME_UNCONFIRMED, /* it did not, and no earlier program made it happen again */
	BLAME_CULPRIT,     /* the earlier program itself: found by replay to cause that failure */
	BLAME_SLOW,        /* a hang that finished alone in a fresh worker given longer: its verdict is that run's */
};

/* "confirmed", "moved", "unconfirmed", "culprit", "slow"; "" for BLAME_NONE. */
const char *blame_status_name(enum blame_status s);

struct check_result;

struct check_blame {
	enum blame_status status;
	char note[400];                /* what the replays did, for meta.json and the verdict line */
	struct check_result *culprit;  /* BLAME_MOVED: the earlier program's own result (malloc'd) */
	struct graph *culprit_graph;   /* its graph (malloc'd); NULL for a program text */
	unsigned culprit_age;          /* it ran this many programs before (1: just before) */
};

/* One finding of a check: its verdict, signature and op set. */
struct check_finding {
	struct verdict v;
	uint64_t signature;
	const char *ops[G_MAX_NODES];
	unsigned nops;
};

/* What else a graph's outputs showed besides its verdict: room for one
 * finding per component, and some. */
#define CHECK_MAX_MORE 15

struct check_result {
	struct run_result run;
	struct verdict v;
	uint64_t signature;       /* for findings; 0 otherwise */
	const char *ops[G_MAX_NODES]; /* a finding's op names (op_names.h: its output's component), hashed in */
	unsigned nops;                /* signature; 0 for a program text */
	char *program;            /* the emitted program that ran (malloc'd) */
	size_t program_len;
	struct check_blame blame;
	/* The other outputs' findings (oracle_judge_each), one per signature
	 * other than the verdict's own: a bug in one component hides no other's. */
	struct check_finding more[CHECK_MAX_MORE];
	unsigned nmore;
};

/* r's verdict as a finding. */
void check_primary(const struct check_result *r, struct check_finding *f);

/* Runs j on x and judges it into out (out->program left NULL). 0, or -1
 * with a reason (no worker). */
int check_job_run(struct executor *x, const struct check_job *j, struct check_result *out, char *why, size_t n);

/* Forgets r's output values: they point into the memory of a worker about
 * to go (a replay's), while the rest of r is kept. */
void check_forget_values(struct run_result *r);

void check_result_free(struct check_result *r);

#endif
