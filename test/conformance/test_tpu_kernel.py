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

    # TODO(K2): the seed session (plain JS in a vm) has no language service,
    # display helpers or pager; fill these in with the TypeScript session:
    #   completion_samples = [{"text": "Math.ma", "matches": {"Math.max"}}]
    #   complete_code_samples / incomplete_code_samples / invalid_code_samples
    #   code_inspect_sample = "Math.max"
    #   code_display_data = [{"code": "display(...)", "mime": "text/html"}]
    #   code_clear_output = "..."  (a cell that calls clear_output)
    #   code_page_something = "..." (a cell whose reply has a 'page' payload)


if __name__ == "__main__":
    unittest.main()
