/* Links cli/plot.py, which draws `pt2fuzz plot`'s figure with matplotlib,
 * into the binaries, so that build/pt2fuzz plots without a source tree. */
	.section .rodata
	.global pt2fuzz_plot_py
	.global pt2fuzz_plot_py_end
pt2fuzz_plot_py:
	.incbin "cli/plot.py"
pt2fuzz_plot_py_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
