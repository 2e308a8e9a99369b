"""ttdut_line.py - the server side of the ttdut line protocol (conformance/README.md,
"Implementations under test") that every Python implementation shares: the request loop and the
requests whose answers do not depend on the implementation. An implementation gives `serve` its
`answer(req, args)` for the rest; conformance/dut/example_dut.py is the smallest one."""
import re, sys


def common(req, a, caps, refusal, reset):
    """The answer to hello, caps, accepts or reset (functional mode, no knobs), else None.
    caps: the caps line; refusal(word): None or why the word is refused; reset(): back to reset."""
    if req == "hello": return "ok 1"
    if req == "caps": return caps
    if req == "accepts":
        why = refusal(int(a[0], 0) & 0xFFFFFFFF)
        return "no " + why if why else "ok"
    if req == "reset":
        if a[:1] not in (["func"], ["cycle"]): return "error reset needs func or cycle"
        if a != ["func"]: return "no functional mode only, without knobs or profiles"
        reset()
        return "ok"
    return None


def unsupported(req):
    return "no request '%s' is not supported" % re.sub(r"[^!-~]", "?", req[:40])


def serve(answer):
    """Answer every request line on stdin until `quit` or end of input; never crash on a bad one."""
    try:
        for raw in sys.stdin.buffer:   # bytes: no input can fail to decode
            words = raw.decode("latin-1").split()
            req, args = (words[0], words[1:]) if words else ("", [])
            try:
                out = "ok" if req == "quit" else answer(req, args)
            except Exception as e:   # a malformed number or a missing operand
                out = "error bad request: %s" % re.sub(r"[^ -~]", "?", str(e))[:200]
            print(out, flush=True)
            if req == "quit": return
    except (BrokenPipeError, KeyboardInterrupt):
        pass   # the runner went away: nothing to say
