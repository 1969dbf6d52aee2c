#!/usr/bin/env python3
"""Feed a protocol transcript to a brain the way a Gomocup manager does.

Used by scripts/windows.sh test, once per transcript and binary (the Linux binary, and the
Windows exe under wine64). Piping a whole file into a brain (`brain < file.in`) is not how a
manager talks: a brain with a reader thread sees END before it has answered the BOARD above
it, stops its search and drops the answer (as it should). So, like Piskvork:

  * every line of the transcript is sent as it is (its own line ending, CR LF or LF);
  * after a command that gets an answer (START, RECTSTART, RESTART, BEGIN, TURN, PLAY,
    TAKEBACK, ABOUT, the DONE that closes BOARD or SWAP2BOARD, and any command the table
    below does not know, which a brain must answer with UNKNOWN or ERROR) the driver reads
    the brain's output until an answer line arrives; lines starting with "MESSAGE " or
    "DEBUG " (any case), and empty lines, are not answers;
  * INFO, lines inside BOARD/SWAP2BOARD/YXBOARD blocks and empty lines get no answer and
    are not waited for;
  * after END (or at the end of the file) stdin is closed and the driver waits for exit.

Everything the brain writes to stdout goes, byte for byte, to OUT; stderr goes to ERR.
The last line printed on stdout is a summary of key=value pairs that windows.sh reads:
  exit=<brain exit status, or -N for signal N> expected=<answers waited for>
  answers=<answer lines seen> unsolicited=<answer lines no command asked for>
  missing=<commands whose answer did not come in time> end_ms=<END to exit, ms>
  verdict=ok|timeout|unsolicited|died
An answer that does not arrive within --reply-timeout seconds ends the run (the brain is
killed). Unsolicited answer lines (e.g. ERROR after an INFO) are a protocol fault: Piskvork
would read such a line as the answer to the next command.
"""
import argparse
import os
import queue
import subprocess
import sys
import threading
import time

# Commands that never get an answer line. Everything else not listed in BLOCKS is waited for.
NO_ANSWER = {"INFO", "END", "YXHASHCLEAR", "YXSHOWINFO", "YXBLOCKRESET", "YXSTOP", "STOP"}
# Multi-line blocks closed by DONE: whether the DONE gets an answer.
BLOCKS = {"BOARD": True, "SWAP2BOARD": True, "YXBOARD": False, "YXBLOCK": False,
          "YXBLOCKUNDO": False}


def is_answer(line: bytes) -> bool:
    t = line.decode("latin-1").strip()
    if not t:
        return False
    low = t.lower()
    return not (low.startswith("message ") or low.startswith("debug ")
                or low in ("message", "debug"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("transcript")
    ap.add_argument("out")
    ap.add_argument("err")
    ap.add_argument("--reply-timeout", type=float, default=30.0)
    ap.add_argument("--end-timeout", type=float, default=10.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        ap.error("no brain command given")

    with open(a.transcript, "rb") as f:
        lines = f.read().splitlines(keepends=True)

    out = open(a.out, "wb")
    err = open(a.err, "wb")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                            bufsize=0)
    q: "queue.Queue[bytes | None]" = queue.Queue()

    def reader() -> None:
        buf = b""
        while True:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            out.write(chunk)
            out.flush()
            buf += chunk
            *done, buf = buf.split(b"\n")
            for d in done:
                q.put(d)
        if buf:
            q.put(buf)
        q.put(None)

    t_reader = threading.Thread(target=reader, daemon=True)
    t_reader.start()

    expected = answers = missing = 0
    pending = 0          # answer lines seen but not yet matched to a command
    eof = False
    verdict = "ok"

    def pull(timeout: float) -> bool:
        """Reads one line; False on timeout. Sets eof at the end of the brain's output."""
        nonlocal pending, answers, eof
        try:
            line = q.get(timeout=timeout)
        except queue.Empty:
            return False
        if line is None:
            eof = True
        elif is_answer(line):
            answers += 1
            pending += 1
        return True

    def wait_answer() -> bool:
        nonlocal pending
        deadline = time.monotonic() + a.reply_timeout
        while pending == 0 and not eof:
            left = deadline - time.monotonic()
            if left <= 0 or not pull(left):
                return False
        if pending:
            pending -= 1
            return True
        return False

    block = None         # name of the open block, if any
    end_sent_at = None
    for raw in lines:
        text = raw.decode("latin-1").strip()
        word = text.split()[0].upper() if text else ""
        wants = False
        if block is not None:
            if word == "DONE":
                wants = BLOCKS[block]
                block = None
        elif not text:
            pass
        elif word in BLOCKS:
            block = word
        elif word not in NO_ANSWER:
            wants = True
        data = raw if raw.endswith(b"\n") or raw.endswith(b"\r") else raw + b"\r\n"
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            verdict = "died"
            break
        if word == "END" and block is None:
            end_sent_at = time.monotonic()
            break
        if wants:
            expected += 1
            if not wait_answer():
                if eof:
                    verdict = "died"
                else:
                    missing += 1
                    verdict = "timeout"
                    sys.stderr.write(f"drive.py: no answer to {text!r} within "
                                     f"{a.reply_timeout:g} s\n")
                break

    try:
        proc.stdin.close()
    except OSError:
        pass
    if end_sent_at is None:
        end_sent_at = time.monotonic()
    try:
        proc.wait(timeout=a.end_timeout if verdict != "timeout" else 0.1)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        if verdict == "ok":
            verdict = "timeout"
            sys.stderr.write(f"drive.py: brain still running {a.end_timeout:g} s after "
                             "END / end of input; killed\n")
    end_ms = int((time.monotonic() - end_sent_at) * 1000)
    t_reader.join(timeout=10)
    while not eof and pull(0.5):
        pass
    out.close()
    err.close()
    unsolicited = pending
    if verdict == "ok" and unsolicited:
        verdict = "unsolicited"
    print(f"exit={proc.returncode} expected={expected} answers={answers} "
          f"unsolicited={unsolicited} missing={missing} end_ms={end_ms} verdict={verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
