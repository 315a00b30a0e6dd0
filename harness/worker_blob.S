/* Links harness/worker_coverage.py and harness/worker.py (one script, in
 * that order) into every binary that runs workers, so the tools
 * need no source tree at run time (a GPU node, an OSS-Fuzz $OUT). */
	.section .rodata
	.global pt2fuzz_worker_py
	.global pt2fuzz_worker_py_end
pt2fuzz_worker_py:
	.incbin "harness/worker_coverage.py"
	.incbin "harness/worker.py"
pt2fuzz_worker_py_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
