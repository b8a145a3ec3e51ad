"""jupyter_kernel_test conformance suite for the tpu-ts kernel.

Run by test/conformance/conformance.test.ts with a temporary JUPYTER_PATH
holding the kernelspec (`tpu-kernel install --prefix DIR`).
"""
import unittest

import jupyter_kernel_test


class TpuKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "tpu-ts"
    language_name = "typescript"
    file_extension = ".ts"

    code_hello_world = "console.log('hello, world')"
    code_stderr = "console.error('oops')"
    code_generate_error = "throw new Error('expected failure')"
    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": "'tpu' + '-ts'", "result": "'tpu-ts'"},
        {"code": "[1, 2, 3].map((x) => x * 2)", "result": "[ 2, 4, 6 ]"},
    ]
    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "6?7"

    # TypeScript language service, display helpers and the pager (kernel/session).
    completion_samples = [
        {"text": "Math.ma", "matches": {"max"}},
        {"text": "display.ht", "matches": {"html"}},
        {"text": "const text = 'abc';\ntext.toUpper", "matches": {"toUpperCase"}},
        {"text": "%lsm", "matches": {"%lsmagic"}},
    ]
    complete_code_samples = ["const x = 1", "function f() { return 1; }", "%time 1 + 1", ""]
    incomplete_code_samples = ["function f() {", "const xs = [1,", "if (x) {\n  y();\n} else {", "const s = `open"]
    invalid_code_samples = ["const = ;", "}", "let a = 1;\na)"]
    code_inspect_sample = "Math.max"
    code_display_data = [
        {"code": "display.html('<b>hi</b>')", "mime": "text/html"},
        {"code": "display.markdown('**hi**')", "mime": "text/markdown"},
        {"code": "display({ [Symbol.for('Jupyter.display')]() { return { 'image/svg+xml': '<svg/>' }; } })", "mime": "image/svg+xml"},
    ]
    code_clear_output = "console.log('gone'); clearOutput()"
    code_page_something = "Math.max?"


if __name__ == "__main__":
    unittest.main()
