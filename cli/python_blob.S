/* Links the cli's Python scripts (cli/python_script.h) into the binaries,
 * so that build/pt2fuzz runs them without a source tree. */
	.section .rodata
	.global pt2fuzz_plot_py
	.global pt2fuzz_plot_py_end
	.global pt2fuzz_opdb_py
	.global pt2fuzz_opdb_py_end
pt2fuzz_plot_py:
	.incbin "cli/plot.py"
pt2fuzz_plot_py_end:
	.byte 0
pt2fuzz_opdb_py:
	.incbin "cli/opdb.py"
pt2fuzz_opdb_py_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
