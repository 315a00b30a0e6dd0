/* Links harness/worker_coverage.py, harness/worker_decisions.py,
 * harness/worker_scratch.py, harness/worker_nudged.py,
 * harness/aoti_runner.cpp (as the string AOTI_RUNNER_CPP, which the worker
 * compiles for --backend aoti) and harness/worker.py (one script, in that
 * order) into every binary that runs workers, so the tools need no source
 * tree at run time (a GPU node, an OSS-Fuzz $OUT). The C++ source holds no
 * triple quote. */
	.section .rodata
	.global pt2fuzz_worker_py
	.global pt2fuzz_worker_py_end
pt2fuzz_worker_py:
	.incbin "harness/worker_coverage.py"
	.incbin "harness/worker_decisions.py"
	.incbin "harness/worker_scratch.py"
	.incbin "harness/worker_nudged.py"
	.ascii "AOTI_RUNNER_CPP = r\"\"\"\n"
	.incbin "harness/aoti_runner.cpp"
	.ascii "\"\"\"\n"
	.incbin "harness/worker.py"
pt2fuzz_worker_py_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
