#!/usr/bin/env python3
"""A daemon's use of the theway-context sidecar, in Python (standard library only).

Starts `theway-context serve --stdio`, loads a session, appends one user
message to it (as the daemon does before its next model call), and loads
again with the cursor of the first reply: the second reply carries only the
new message.

The client survives the sidecar's death. When the sidecar's output ends
(it exited, was killed, ran out of memory) or ends inside a reply (a
partial last line), or its input is closed, the client starts a new
sidecar and loads again without `since`: cursors belong to the process
that gave them, so every session's context is taken whole from the new one.
A request is sent again only after a restart, never twice to one sidecar.

    python3 examples/sidecar_client.py SESSION.jsonl [-- SIDECAR COMMAND...]

The session is copied to a temporary file first; the original is not touched.
The default sidecar command is this repository's build (`node dist/cli/bin.cjs
serve --stdio`); an installed package would use `theway-context serve --stdio`.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_COMMAND = ["node", os.path.join(HERE, "..", "dist", "cli", "bin.cjs"), "serve", "--stdio"]

# Restarts in a row before the client gives up (a sidecar that dies at start, a bad command).
MAX_RESTARTS = 3


class SidecarError(Exception):
    """An error reply: the request was answered, and refused (a bad log, bad params…)."""

    def __init__(self, error):
        super().__init__(error["message"])
        self.code = error["code"]
        self.data = error.get("data")


class SidecarDied(Exception):
    """The sidecar's output ended, or ended inside a reply: the process is gone."""


class Sidecar:
    """One process: one JSON-RPC 2.0 request per line on its stdin, one reply per line on its stdout."""

    def __init__(self, command):
        # stderr is inherited: the sidecar's warnings go where ours go.
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise SidecarDied(f"cannot write to the sidecar: {error}") from error
        line = self.process.stdout.readline()
        if line == "":
            raise SidecarDied("the sidecar's output ended")
        if not line.endswith("\n"):
            raise SidecarDied("the sidecar's output ended inside a reply")
        reply = json.loads(line)
        assert reply["id"] == self.next_id
        if "error" in reply:
            raise SidecarError(reply["error"])
        return reply["result"]

    def close(self):
        """Asks the sidecar to stop; returns its exit code (a dead one's too)."""
        try:
            self.call("shutdown")
            self.process.stdin.close()
        except (SidecarDied, OSError):
            self.process.kill()
        return self.process.wait()

    def kill(self):
        self.process.kill()
        self.process.wait()


class ContextClient:
    """
    The context of each session, kept current through one sidecar, which is
    started again when it dies. `context(path)` returns (system prompt,
    messages) as a fresh render would give them.
    """

    def __init__(self, command):
        self.command = command
        self.sidecar = Sidecar(command)
        self.restarts = 0
        self.sessions = {}  # path -> {"cursor", "messages", "prompt"}

    def context(self, path):
        failures = 0
        while True:
            known = self.sessions.get(path)
            params = {"path": path}
            if known is not None:
                params["since"] = known["cursor"]
            try:
                reply = self.sidecar.call("load", **params)
                break
            except SidecarDied:
                failures += 1
                if failures > MAX_RESTARTS:
                    raise
                self.restart()
        if known is None or reply["reset"]:
            messages = reply["messages"]  # the whole context (a new session, or the branch changed)
        else:
            messages = known["messages"][: reply["from"]] + reply["messages"]
        prompt = reply.get("systemPrompt", known["prompt"] if known else None)  # sent when it changed
        self.sessions[path] = {"cursor": reply["cursor"], "messages": messages, "prompt": prompt}
        return prompt, messages, reply

    def restart(self):
        """A new sidecar: what the old one knew (its cursors) is gone, so every session loads whole."""
        self.sidecar.kill()
        self.sidecar = Sidecar(self.command)
        self.sessions.clear()
        self.restarts += 1

    def close(self):
        return self.sidecar.close()


def user_entry(parent_id, text):
    now = datetime.now(timezone.utc)
    return {
        "type": "message",
        "id": uuid.uuid4().hex[:8],
        "parentId": parent_id,
        "timestamp": now.isoformat().replace("+00:00", "Z"),
        "message": {"role": "user", "content": text, "timestamp": int(now.timestamp() * 1000)},
    }


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[argv.index("--") + 1 :] if "--" in argv else DEFAULT_COMMAND
    workdir = tempfile.mkdtemp(prefix="theway-example-")
    session = os.path.join(workdir, "session.jsonl")
    shutil.copyfile(argv[1], session)
    client = ContextClient(command)
    try:
        # 1. The first load: the whole context.
        _, first_messages, first = client.context(session)
        first_count = len(first_messages)

        # 2. The daemon appends the user's next message, then loads again from the cursor.
        with open(session, "a", encoding="utf-8") as log:
            log.write(json.dumps(user_entry(first["meta"]["leafId"], "And now the tests, please.")) + "\n")
        prompt, messages, second = client.context(session)

        print(json.dumps({
            "first": {"messages": first_count, "from": first["from"]},
            "second": {
                "messages": len(second["messages"]),
                "from": second["from"],
                "reset": second["reset"],
                "systemPromptSent": "systemPrompt" in second,
            },
            "context": {"messages": len(messages), "systemPromptChars": len(prompt)},
            "last": messages[-1]["content"],
            "restarts": client.restarts,
        }))
        return 0
    finally:
        code = client.close()
        shutil.rmtree(workdir, ignore_errors=True)
        if code != 0:
            print(f"sidecar exited with {code}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
