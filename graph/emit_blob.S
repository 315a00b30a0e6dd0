/* Links the fixed parts of the emitted program (graph/emit_*.py) into every
 * binary that links graph/emit.c; emit.c and emit_plain.c paste each between
 * the text they write for the graph. Each piece is valid Python alone, ending with a newline. */
	.section .rodata
	.global pt2fuzz_emit_imports_py
	.global pt2fuzz_emit_imports_py_end
pt2fuzz_emit_imports_py:
	.incbin "graph/emit_imports.py"
pt2fuzz_emit_imports_py_end:
	.global pt2fuzz_emit_special_py
	.global pt2fuzz_emit_special_py_end
pt2fuzz_emit_special_py:
	.incbin "graph/emit_special.py"
pt2fuzz_emit_special_py_end:
	.global pt2fuzz_emit_nonfinite_py
	.global pt2fuzz_emit_nonfinite_py_end
pt2fuzz_emit_nonfinite_py:
	.incbin "graph/emit_nonfinite.py"
pt2fuzz_emit_nonfinite_py_end:
	.global pt2fuzz_emit_fill_py
	.global pt2fuzz_emit_fill_py_end
pt2fuzz_emit_fill_py:
	.incbin "graph/emit_fill.py"
pt2fuzz_emit_fill_py_end:
	.global pt2fuzz_emit_model_init_py
	.global pt2fuzz_emit_model_init_py_end
pt2fuzz_emit_model_init_py:
	.incbin "graph/emit_model_init.py"
pt2fuzz_emit_model_init_py_end:
	.global pt2fuzz_emit_runner_py
	.global pt2fuzz_emit_runner_py_end
pt2fuzz_emit_runner_py:
	.incbin "graph/emit_runner.py"
pt2fuzz_emit_runner_py_end:
	.global pt2fuzz_emit_inference_py
	.global pt2fuzz_emit_inference_py_end
pt2fuzz_emit_inference_py:
	.incbin "graph/emit_inference.py"
pt2fuzz_emit_inference_py_end:
	.global pt2fuzz_emit_upcast_py
	.global pt2fuzz_emit_upcast_py_end
pt2fuzz_emit_upcast_py:
	.incbin "graph/emit_upcast.py"
pt2fuzz_emit_upcast_py_end:
	.section .note.GNU-stack,"",@progbits
