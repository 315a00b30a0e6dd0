/* The cli's Python scripts (cli/plot.py, cli/opdb.py, linked in by cli/python_blob.S), run
 * by the worker's Python (harness/runtime.h runtime_run_script). */
#ifndef PT2FUZZ_PYTHON_SCRIPT_H
#define PT2FUZZ_PYTHON_SCRIPT_H
#include <stddef.h>

extern const char pt2fuzz_plot_py[], pt2fuzz_plot_py_end[];
extern const char pt2fuzz_opdb_py[], pt2fuzz_opdb_py_end[];

#endif
