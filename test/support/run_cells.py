"""Runs cells on a kernel with jupyter_client, as hosted frontends (Colab, JupyterHub) do.

usage: run_cells.py --connection-file F   (a kernel that is already running)
       run_cells.py --kernel-name NAME    (jupyter_client launches it from its kernelspec,
                                           applying the kernelspec's env block)
Reads a JSON list of cell sources on stdin; prints one JSON object with a result per cell
({status, stdout, stderr, text, error}) and then shuts the kernel down.
"""
import argparse
import json
import sys
import time

import zmq
from jupyter_client import BlockingKernelClient, KernelManager


def wait_for_heartbeat(client, timeout):
    """Waits until a kernel started by someone else answers its heartbeat, as a hosting
    service does before handing it to clients (jupyter_client alone declares a kernel
    dead when the heartbeat is silent for a second, e.g. while it still starts)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        probe = zmq.Context.instance().socket(zmq.REQ)
        probe.linger = 0
        probe.connect(client._make_url("hb"))
        probe.send(b"ping")
        answered = probe.poll(1000)
        probe.close()
        if answered:
            return
    raise RuntimeError(f"the kernel did not answer its heartbeat within {timeout} s")


def run_cell(client, code, timeout):
    result = {"status": None, "stdout": "", "stderr": "", "text": None, "error": None}

    def on_output(msg):
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            result[content["name"]] += content["text"]
        elif kind == "execute_result":
            result["text"] = content["data"].get("text/plain")
        elif kind == "error":
            result["error"] = f'{content["ename"]}: {content["evalue"]}'

    reply = client.execute_interactive(code, timeout=timeout, output_hook=on_output, allow_stdin=False)
    result["status"] = reply["content"]["status"]
    return result


def main():
    parser = argparse.ArgumentParser()
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--connection-file")
    target.add_argument("--kernel-name")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    cells = json.load(sys.stdin)

    manager = None
    if args.kernel_name:
        manager = KernelManager(kernel_name=args.kernel_name)
        manager.start_kernel()
        client = manager.client()
    else:
        client = BlockingKernelClient(connection_file=args.connection_file)
        client.load_connection_file()
        wait_for_heartbeat(client, args.timeout)
    client.start_channels()
    try:
        client.wait_for_ready(timeout=args.timeout)
        info = client.kernel_info(reply=True, timeout=args.timeout)["content"]
        results = [run_cell(client, code, args.timeout) for code in cells]
        print(json.dumps({"implementation": info.get("implementation"), "cells": results}))
    finally:
        if manager is not None:
            manager.shutdown_kernel(now=False)
        else:
            client.shutdown()
        client.stop_channels()


if __name__ == "__main__":
    main()
