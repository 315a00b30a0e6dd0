/* Links pipeline/known_bugs.txt, the known upstream bugs, into the binaries,
 * so that build/pt2fuzz marks them without a source tree. */
	.section .rodata
	.global pt2fuzz_known_bugs_txt
	.global pt2fuzz_known_bugs_txt_end
pt2fuzz_known_bugs_txt:
	.incbin "pipeline/known_bugs.txt"
pt2fuzz_known_bugs_txt_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
