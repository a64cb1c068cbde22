#!/usr/bin/env python3
"""A daemon's use of the theway-context sidecar, in Python (standard library only).

Starts `theway-context serve --stdio`, loads a session, appends one user
message to it (as the daemon does before its next model call), and loads
again with the cursor of the first reply: the second reply carries only the
new message.

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


class SidecarError(Exception):
    def __init__(self, error):
        super().__init__(error["message"])
        self.code = error["code"]
        self.data = error.get("data")


class Sidecar:
    """One JSON-RPC 2.0 request per line on the sidecar's stdin, one reply per line on its stdout."""

    def __init__(self, command):
        # stderr is inherited: the sidecar's warnings go where ours go.
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        assert reply["id"] == self.next_id
        if "error" in reply:
            raise SidecarError(reply["error"])
        return reply["result"]

    def close(self):
        self.call("shutdown")
        self.process.stdin.close()
        return self.process.wait()


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
    sidecar = Sidecar(command)
    try:
        # 1. The first load: the whole context.
        first = sidecar.call("load", path=session)
        messages = first["messages"]
        prompt = first["systemPrompt"]

        # 2. The daemon appends the user's next message, then loads again from the cursor.
        with open(session, "a", encoding="utf-8") as log:
            log.write(json.dumps(user_entry(first["meta"]["leafId"], "And now the tests, please.")) + "\n")
        second = sidecar.call("load", path=session, since=first["cursor"])
        if second["reset"]:
            messages = second["messages"]  # the branch changed: start over
        else:
            messages = messages[: second["from"]] + second["messages"]
        prompt = second.get("systemPrompt", prompt)  # sent only when it changed

        print(json.dumps({
            "first": {"messages": len(first["messages"]), "from": first["from"]},
            "second": {
                "messages": len(second["messages"]),
                "from": second["from"],
                "reset": second["reset"],
                "systemPromptSent": "systemPrompt" in second,
            },
            "context": {"messages": len(messages), "systemPromptChars": len(prompt)},
            "last": messages[-1]["content"],
        }))
        return 0
    finally:
        code = sidecar.close()
        shutil.rmtree(workdir, ignore_errors=True)
        if code != 0:
            print(f"sidecar exited with {code}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
