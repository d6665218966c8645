#!/usr/bin/env python3
# A process of a system under "morpheus fuzz", in Python: the tracepoint
# protocol (docs/tracepoint-protocol.md) in a few lines. Without
# MORPHEUS_SOCKET the tracepoints do nothing.
import os, socket, sys

class Tracepoints:
    def __init__(self, process):
        path = os.environ.get("MORPHEUS_SOCKET")
        self.f = None
        if path:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            self.f = s.makefile("rw", newline="\n")
            self._send(f"hello 1 {process}", "ok 1")

    def _send(self, line, want):
        self.f.write(line + "\n")
        self.f.flush()
        reply = self.f.readline().rstrip("\n")
        if reply != want:
            raise RuntimeError(f"ordering server answered {reply!r} to {line!r}")

    def hit(self, name, **attrs):  # blocks until the server releases it
        if self.f:
            self._send(" ".join(["hit", name] + [f"{k}={v}" for k, v in attrs.items()]), "go")

    def bye(self):
        if self.f:
            self.f.write("bye\n")
            self.f.flush()

tp = Tracepoints(sys.argv[1] if len(sys.argv) > 1 else "py")
tp.hit("start")
tp.hit("send", to="peer")
tp.bye()
