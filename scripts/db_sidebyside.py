#!/usr/bin/env python3
"""Replays Yixin-Board's position-database commands against Rensa and Rapfi side by side.

    python3 scripts/db_sidebyside.py --rensa target/release/pbrain-rensa \
        --rapfi ../shared/anchors/pbrain-rapfi [--rapfi-scaling 200] [--out report.md] \
        [--keep DIR] [--only NAME]

Each scenario is the byte stream Yixin-Board's send_command() writes (dhb_main.c: no
newline added; yxedittextdatabase has none, so the first move follows the closing quote).
It runs in a fresh directory per engine, both starting from copies of the same seed files,
with relative paths so that the paths the engines echo are the same. Replies are normalised
(see NORMALISATIONS), then compared step by step; so are the CSV files written and the final
database read back through each engine. Exit 0 when everything matches, 1 otherwise.
Standard library only; one engine runs at a time.
"""
import argparse, difflib, hashlib, os, queue, re, shutil, subprocess, sys, tempfile, threading, time

QUIET = 0.5  # an engine that printed nothing for this long has answered the step
NORMALISATIONS = [
    "trailing spaces removed (Rapfi ends `MESSAGE DATABASE x y ...` lines with a space)",
    "the run's own temporary directory, where an engine prints an absolute path, reads `<dir>`",
    "stderr is not compared (Yixin-Board reads stdout only; Rensa logs its ERRORs there too)",
    "Rapfi's `MESSAGE Load config from ...` dropped",
    "the default database names `rensa.db` / `rapfi.db` both read `<default>.db`",
    "free-text MESSAGE lines (not `MESSAGE DATABASE ...`) reduced to the facts both engines "
    "print: `~opening PATH`, `~deleted N`, `~merged N of M`, `~split N`, `~imported N`, "
    "`~csv PATH`; all others (timings, record counts on load, Rensa's `read-only: not "
    "changed`, Rapfi's `Deleting child records...`) dropped. Raw transcripts: --keep",
]
FACTS = [  # (pattern on the text after "MESSAGE ", canonical form)
    (r"Opening (?:yixin )?database at (\S+)", r"~opening \1"),
    (r"Done deleting (\d+) records", r"~deleted \1"),
    (r"Merged (\d+) out of (\d+) records", r"~merged \1 of \2"),
    (r"Wr(?:ite|ote) (\d+) records into the sp\w+ database", r"~split \1"),
    (r"Imported (\d+) records from lib file", r"~imported \1"),
    (r"Wrote .*(?:csv-format text file|as CSV to) (\S+?)(?: using \d+ ms\.)?$", r"~csv \1"),
]

# ---- Yixin-Board's commands, as its sprintf formats write them -----------------------
def moves(ms):
    return b"".join(b"%d,%d\n" % m for m in ms) + b"done\n"

def start(n=15): return b"start %d\n" % n
def info(key, v): return b"info %s %d\n" % (key.encode(), v)
def path_cmd(name, path): return b"%s\n%s\n" % (name.encode(), path.encode())
def setdb(path): return path_cmd("yxsetdatabase", path)
def save(): return b"yxsavedatabase\n"
def allt(ms): return b"yxquerydatabaseallt\n" + moves(ms)    # show_database()
def one(ms): return b"yxquerydatabaseone\n" + moves(ms)      # dbval
def text(ms): return b"yxquerydatabasetext\n" + moves(ms)    # dbtext
def tag(ms, ch):  # dbedittag: "%hhd" of the label char, -1 for none
    return b"yxedittvddatabase 1 %d 0 0\n" % (ord(ch) if ch else -1) + moves(ms)
def val(ms, v): return b"yxedittvddatabase 2 -1 %d 0\n" % v + moves(ms)
def dep(ms, d): return b"yxedittvddatabase 4 -1 0 %d\n" % d + moves(ms)
def comment(ms, s):  # dbeditcomment: `"` and `\` escaped, no newline after the quote
    esc = s.replace("\\", "\\\\").replace('"', '\\"')
    return b'yxedittextdatabase "' + esc.encode() + b'"' + moves(ms)
def label(ms, x, y, s):  # dbeditlabel; an empty text deletes ("x,y \n")
    return b"yxeditlabeldatabase %d,%d %s\n" % (x, y, s.encode()) + moves(ms)
def delone(ms): return b"yxdeletedatabaseone\n" + moves(ms)
def delall(ms, kind=""):  # "wlinstep 3" etc.
    return (b"yxdeletedatabaseall %s\n" % kind.encode() if kind else
            b"yxdeletedatabaseall\n") + moves(ms)
def board(ms):  # send_board(FALSE): colour 1 for the side to move's stones
    n = len(ms)
    rows = b"".join(b"%d,%d,%d\n" % (x, y, 1 if n % 2 == i % 2 else 2)
                    for i, (x, y) in enumerate(ms))
    return start() + b"yxboard\n" + rows + b"done\n"
def split(ms, path): return board(ms) + path_cmd("yxdbsplit", path)
def merge(path): return path_cmd("yxdbmerge", path)
def totxt(path, all_=False): return path_cmd("yxdbtotxtall" if all_ else "yxdbtotxt", path)
def libtodb(path): return path_cmd("yxlibtodb", path)

A, B = (7, 7), (8, 8)          # centre and a diagonal reply
SYM = [A, (6, 6)]              # the same position as [A, B] turned by 180 degrees
SIDE = [B, A]                  # the stones of [A, B] with the colours swapped

def renlib():
    """A tiny RenLib 3.4 file: root; 7,7 -> 8,8 "a" -> 9,9 comment "hi" text "W5";
    7,7 -> 6,8 text "v30", the mirror image of 7,7 8,8: two nodes for one record
    (renlib.rs: move byte (y<<4)|(x+1), then flags)."""
    mv = lambda x, y: (y << 4) | (x + 1)
    ext = b"\x00\x01"  # flag 0x01: two bytes follow, bit 0 of the second = board text
    body = bytes([0, 0, mv(7, 7), 0x00, mv(8, 8), 0x81]) + ext + b"a\x00" \
        + bytes([mv(9, 9), 0x49]) + ext + b"hi\x00\x00" + b"W5\x00\x00" \
        + bytes([mv(6, 8), 0x41]) + ext + b"v30\x00"
    return b"\xffRenLib\xff\x03\x04" + b"\xff" * 10 + body

# ---- the seeds: database files one engine builds, copied to both --------------------
# Children of [A] in different symmetry classes (so that no edit lands on another's record):
# B (diagonal), K1 (next to A), N (knight's move), F (two away), D2 (two diagonally)
K1, N, F, D2 = (8, 7), (9, 8), (9, 7), (9, 9)
BUILD = [start(), setdb("a.db"), tag([A, B], "W"), val([A, B], -29990), dep([A, B], 12),
         tag([A, K1], "L"), val([A, K1], 150), tag([A, N], "!"),
         comment([A], 'centre "open"\nsecond line \\ end'), label([A], 9, 9, "Q"),
         tag([A, B, D2], "D"), tag([(7, 8)], "X"),
         start(20), tag([(9, 9)], "W"), start(), save()]
TREE = [start(), setdb("a.db"), tag([A, B], "W"), val([A, B], -29995),      # win in steps
        tag([A, B, D2], "L"), tag([A, B, D2, (6, 6)], "W"),
        tag([A, K1], "L"), val([A, K1], 29993),                                # loss in steps
        tag([A, N], "W"), tag([A, N, (5, 5)], "L"), tag([A, F], "L"),         # no steps
        val([A, D2], 40), tag([A, D2, (5, 5)], "W"), tag([A, (10, 7)], "D"), save()]
OTHER = [start(), setdb("b.db"), tag([A, B], "L"), val([A, B], 77), tag([A, (7, 6)], "W"),
         comment([A, (7, 6)], "from b"), tag([(3, 3)], "D"), save()]
# Rapfi's merge rule (dbutils.cpp mergeDatabase -> checkOverwrite, depth bias 0): a result
# meets a different result, a value meets a shallower value, a value meets a '!'.
MERGE_A = [start(), setdb("a.db"), val([A, N], 100), dep([A, N], 10), tag([A, K1], "L"),
           val([A, K1], 29990), tag([A, D2], "!"), dep([A, D2], 5), tag([A, B], "W"),
           val([A, B], -29980), save()]
MERGE_B = [start(), setdb("b.db"), val([A, N], -50), dep([A, N], 9), tag([A, K1], "W"),
           val([A, K1], -29980), val([A, D2], 20), dep([A, D2], 8), tag([A, B], "W"),
           val([A, B], -29990), save()]
DAMAGED = "damaged"  # BUILD's file by Rapfi, cut short

def sc(name, steps, seeds=None, csv=(), dump=None, note=""):
    return dict(name=name, steps=steps, seeds=seeds or {}, csv=list(csv), note=note,
                dump=dump or ("a.db", [[], [A], [A, B], SYM, SIDE, [A, (8, 7)],
                                       [A, B, (9, 9)]]))

OPEN = [start(), setdb("a.db"), allt([])]
SCENARIOS = [
    sc("edit_tvd_symmetry_side", [start(), setdb("a.db"), allt([]), tag([A, B], "W"),
       allt([A]), one(SYM), one(SIDE), val([A, B], 120), dep([A, B], 15), one([A, B]),
       tag(SYM, "L"), one([A, B]), tag(SIDE, "D"), one(SIDE), one([A, B]), tag([A, B], "X"),
       tag([A, (8, 7)], "!"), val([A, (8, 7)], -29990), allt([A]), tag([A, B], ""),
       one(SYM), allt([A]), save()], note="a new file made by each engine"),
    sc("mate_values_display", OPEN + [tag([A, B], "W"), val([A, B], -29990),
       tag([A, K1], "L"), val([A, K1], 29985), tag([A, N], "W"), dep([A, N], 30),
       tag([A, F], "L"), val([A, F], -200), val([A, D2], 333), val([A, (10, 7)], -2000),
       val([A, (10, 10)], 0), allt([A]), one([A, D2]), save()]),
    sc("comment_multiline", OPEN + [
       comment([A], 'line "one"\nback\\slash and \\" mixed\n\nlast'), text([A]),
       text(SYM[:1]), comment([A, B], "short"), text(SYM), allt([A]),
       comment([], "empty board"), text([]), comment([A, B], ""), text([A, B]), save()]),
    sc("board_labels_symmetric", OPEN + [
       label([A, B], 9, 9, "A"), label([A, B], 6, 8, "bb"), allt([A, B]), allt(SYM),
       label(SYM, 5, 5, "C"), allt([A, B]), label([A, B], 9, 9, ""), allt(SYM),
       label([A], 8, 8, "W"), allt([A]), label([A], 7, 7, "T"), allt([A]), save()]),
    sc("delete_one", OPEN + [allt([A]), delone([A, B]), allt([A]), delone(SYM),
       one([A, B, (9, 9)]), save()], seeds={"a.db": ("rapfi", BUILD)}),
] + [sc("delete_all_" + (k.replace(" ", "_") or "plain"),
        OPEN + [allt([A]), delall([A], k), allt([A]), allt([A, B]), save()],
        seeds={"a.db": ("rapfi", TREE)},
        dump=("a.db", [[], [A], [A, B], [A, B, D2], [A, D2], [A, N]]))
     for k in ["", "nonwl", "nonwlrecursive", "w", "wrecursive", "l", "lrecursive", "wl",
               "wlrecursive", "wlnostep", "wlinstep 4", "wlinsteprecursive 9"]] + [
    sc("merge", OPEN + [merge("b.db"), allt([]), allt([A]), text([A, (7, 6)]), save()],
       seeds={"a.db": ("rapfi", BUILD), "b.db": ("rensa", OTHER)},
       dump=("a.db", [[], [A], [A, B], [A, (7, 6)], [(3, 3)]])),
    sc("merge_rule", OPEN + [allt([A]), merge("b.db"), allt([A]), save()],
       seeds={"a.db": ("rapfi", MERGE_A), "b.db": ("rapfi", MERGE_B)},
       dump=("a.db", [[A]])),
    sc("merge_compressed", OPEN + [merge("c.db"), allt([A]), save()],
       seeds={"a.db": ("rensa", OTHER), "c.db": ("rapfi", BUILD)}),
    sc("split_then_open", OPEN + [split([A], "s.db"), allt([]), setdb("s.db"),
       allt([]), allt([A]), allt([A, B]), text([A]), one([(7, 8)])],
       seeds={"a.db": ("rapfi", BUILD)}, dump=("s.db", [[], [A], [A, B], [(7, 8)]])),
    sc("dbtotxt", OPEN + [totxt("t.csv"), totxt("all.csv", True)],
       seeds={"a.db": ("rapfi", BUILD)}, csv=["t.csv", "all.csv"]),
    sc("libtodb", [start(), setdb("a.db"), libtodb("x.lib"), allt([]), allt([A]),
       allt([A, B]), text([A, B, (9, 9)]), one([A, B, (9, 9)]), one([A, (6, 8)]), save()],
       seeds={"x.lib": renlib()}, dump=("a.db", [[], [A], [A, B], [A, B, (9, 9)]])),
    sc("readonly", OPEN + [info("database_readonly", 1), tag([A, B], "L"),
       val([A, B], 5), comment([A], "no"), label([A], 3, 3, "R"), delone([A, B]),
       delall([A]), allt([(2, 2)]), one([(2, 2)]), allt([A]), info("database_readonly", 0),
       allt([(2, 2)]), one([(2, 2)]), save()], seeds={"a.db": ("rapfi", BUILD)},
       dump=("a.db", [[], [A], [A, B], [(2, 2)]])),
    sc("usedatabase", [start(), info("usedatabase", 1), allt([]), tag([A, B], "W"),
       one([A, B]), info("usedatabase", 0), one([A, B]), allt([A]), tag([A, B], "L"),
       info("usedatabase", 1), one([A, B]), allt([A]), setdb("a.db"), one([A, B]),
       tag([A], "D"), info("usedatabase", 0), info("usedatabase", 1), one([A]), save()],
       dump=("<default>.db", [[], [A], [A, B]])),
    sc("no_database", [start(), one([A]), allt([A]), text([A]), tag([A, B], "W"),
       comment([A], "x"), label([A], 8, 8, "Z"), delone([A]), delall([A]), save(),
       merge("b.db"), totxt("t.csv")], dump=("none", [])),
] + [sc("read_" + k, OPEN + [allt([A]), one([A, B]), text([A]), tag([A, (5, 5)], "W"),
        save(), allt([A])], seeds={"a.db": v})
     for k, v in [("rapfi_lz4", ("rapfi", BUILD)), ("rapfi_plain", ("rapfi_plain", BUILD)),
                  ("rensa_plain", ("rensa", BUILD)),
                  ("rensa_resaved_lz4", ("rensa", OPEN + [tag([A, (5, 5)], "L"), save()],
                                         {"a.db": ("rapfi", BUILD)}))]] + [
    sc("damaged_file", OPEN + [allt([A]), one([A, B])], seeds={"a.db": DAMAGED},
       note="Rapfi is set to ignore corrupted records; Rensa refuses the file"),
]

# ---- running an engine --------------------------------------------------------------
class Engines:
    def __init__(self, rensa, rapfi, home, scaling):
        # One snapshot of Rensa for the whole run: its binary may be rebuilt meanwhile
        # (a missing one is waited for, as during a build).
        for _ in range(60):
            if os.path.exists(rensa):
                break
            time.sleep(5)
        self.rensa_path, self.scaling = os.path.abspath(rensa), scaling
        self.rensa_built = time.ctime(os.path.getmtime(rensa))
        self.rensa = os.path.join(tempfile.mkdtemp(prefix="dbsbs-bin-"), "pbrain-rensa")
        shutil.copy(rensa, self.rensa)
        if home is None:  # the anchors' wrapper cds into ./rapfi: run that binary ourselves
            with open(rapfi, "rb") as f:
                wrapper = f.read(2) == b"#!"
            home = os.path.join(os.path.dirname(rapfi), "rapfi") if wrapper else \
                os.path.dirname(rapfi)
            rapfi = os.path.join(home, "pbrain-rapfi") if wrapper else rapfi
        self.rapfi, self.home = os.path.abspath(rapfi), os.path.abspath(home)
        self.seeds = {}

    def prepare(self, kind, d):
        """Each engine keeps its default database beside itself (Rapfi: its working directory,
        where it also reads config.toml and its model; Rensa: beside its executable). Run
        both from the run directory, so nothing is written anywhere else."""
        if not kind.startswith("rapfi"):
            shutil.copy(self.rensa, os.path.join(d, "pbrain-rensa"))
            return [os.path.join(d, "pbrain-rensa")]
        for f in os.listdir(self.home):
            src = os.path.join(self.home, f)
            if f == "config.toml":
                cfg = open(src).read()
                if kind == "rapfi_plain":
                    cfg = cfg.replace("compressed_save = true", "compressed_save = false")
                if self.scaling:  # read after the model file, so it overrides the model's
                    cfg = cfg.replace("[model]\n", "[model]\nscaling_factor = %s\n" %
                                      self.scaling, 1)
                open(os.path.join(d, f), "w").write(cfg)
            elif src != self.rapfi and not f.endswith(".db"):
                os.symlink(src, os.path.join(d, f))
        return [self.rapfi]

    def run(self, kind, steps, d):
        """Sends each step, reads until the engine is quiet; returns [(step, [lines])]."""
        err = tempfile.TemporaryFile()
        proc = subprocess.Popen(self.prepare(kind, d), cwd=d, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=err)
        q = queue.Queue()
        reader = threading.Thread(target=lambda: [q.put(l) for l in proc.stdout], daemon=True)
        reader.start()

        def drain(first_wait):
            got, wait = [], first_wait
            while True:
                try:
                    got.append(q.get(timeout=wait).decode("utf-8", "replace").rstrip("\r\n"))
                    wait = QUIET
                except queue.Empty:
                    return got
        out = [("(start-up)", drain(QUIET))]
        for i, s in enumerate(steps + [b"END\n"]):
            try:
                proc.stdin.write(s)
                proc.stdin.flush()
            except BrokenPipeError:
                out.append(("(engine gone)", []))
                break
            shown = s.decode("utf-8", "replace").replace("\n", " | ").rstrip(" |")
            # the first step waits for a slow start-up (Rapfi loads its model)
            out.append((shown[:90], drain(10.0 if i == 0 else QUIET)))
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out.append(("(killed: no exit after END)", []))
        reader.join(5)
        out[-1][1].extend(drain(0.1))
        err.seek(0)
        self.stderr = err.read().decode("utf-8", "replace")
        return out

    def seed(self, key, spec, d, name):
        """Writes seed `name` into `d`: bytes as they are, or the file an engine made."""
        if isinstance(spec, bytes):
            data = spec
        else:
            if key not in self.seeds:
                with tempfile.TemporaryDirectory() as t:
                    if spec == DAMAGED:
                        self.seed(key + "!", ("rapfi", BUILD), t, name)
                        data = open(os.path.join(t, name), "rb").read()
                        data = data[:len(data) * 2 // 3]
                    else:
                        for n, s in (spec[2] if len(spec) > 2 else {}).items():
                            self.seed(key + "/" + n, s, t, n)
                        self.run(spec[0], spec[1], t)
                        data = open(os.path.join(t, name), "rb").read()
                self.seeds[key] = data
            data = self.seeds[key]
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)

# ---- normalising and comparing ------------------------------------------------------
def normalise(transcript, d):
    lines = []
    for step, got in transcript:
        lines.append("> " + step)
        for l in got:
            l = l.rstrip().replace(d, "<dir>")
            l = re.sub(r"\b(rensa|rapfi)\.db\b", "<default>.db", l)
            if l.startswith("MESSAGE ") and not l.startswith("MESSAGE DATABASE"):
                body = l[len("MESSAGE "):]
                for pat, rep in FACTS:
                    m = re.search(pat, body)
                    if m:
                        lines.append("MESSAGE " + m.expand(rep))
                        break
                continue
            lines.append(l)
    return lines

def diff(a, b):
    return list(difflib.unified_diff(a, b, "rapfi", "rensa", n=2, lineterm=""))

def form(path):
    if not os.path.exists(path):
        return "none"
    with open(path, "rb") as f:
        return "lz4" if f.read(4) == b"\x04\x22\x4d\x18" else "plain"

def raw(transcript, stderr):
    return "".join("> %s\n" % s + "".join(l + "\n" for l in g) for s, g in transcript) \
        + "(stderr)\n" + stderr

def run_scenario(eng, s, keep):
    """Returns (list of (what, diff lines), notes)."""
    res, dirs = {}, {}
    for kind in ("rapfi", "rensa"):
        d = tempfile.mkdtemp(prefix="dbsbs-%s-%s-" % (s["name"], kind))
        dirs[kind] = d
        for name, spec in s["seeds"].items():
            eng.seed(repr(spec)[:200] + str(hash(repr(spec))), spec, d, name)
        res[kind] = (eng.run(kind, s["steps"], d), eng.stderr)
    diffs, notes = [("replies", diff(*[normalise(res[k][0], dirs[k])
                                       for k in ("rapfi", "rensa")]))], []
    for c in s["csv"]:
        a, b = [open(os.path.join(dirs[k], c)).read().splitlines()
                if os.path.exists(os.path.join(dirs[k], c)) else ["(no file)"]
                for k in ("rapfi", "rensa")]
        diffs.append(("csv " + c, diff(a, b)))
        notes.append("%s: %d/%d lines" % (c, len(a), len(b)))
    dbname, positions = s["dump"]
    files = {k: os.path.join(dirs[k], dbname.replace("<default>", k)) for k in dirs}
    notes.append("final %s: rapfi %s, rensa %s" % (dbname, form(files["rapfi"]),
                                                    form(files["rensa"])))
    if positions:  # read both final files back, read-only, through each engine
        q = [start(), info("database_readonly", 1), setdb("final.db"),
             info("database_readonly", 1)] + [allt(p) + one(p) for p in positions]
        for reader in ("rensa", "rapfi"):
            dumps = []
            for k in ("rapfi", "rensa"):
                with tempfile.TemporaryDirectory() as t:
                    if os.path.exists(files[k]):
                        shutil.copy(files[k], os.path.join(t, "final.db"))
                    dumps.append(normalise(eng.run(reader, q, t), t))
            diffs.append(("final db read by " + reader, diff(*dumps)))
    for kind, d in dirs.items():
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "%s.%s.txt" % (s["name"], kind)), "w") as f:
                f.write(raw(*res[kind]))
        shutil.rmtree(d, ignore_errors=True)
    return diffs, notes

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rensa", required=True)
    ap.add_argument("--rapfi", required=True)
    ap.add_argument("--rapfi-home", help="folder with Rapfi's config.toml and model "
                    "(default: beside the binary, or ./rapfi beside a wrapper script)")
    ap.add_argument("--rapfi-scaling", help="set Rapfi's scaling_factor (its win-rate scale, "
                    "which the 'NN%%' labels use; by default its model's, 250 for the classical "
                    "model220723, while Rensa shows Yixin's 200)")
    ap.add_argument("--out", help="write the report (markdown) here")
    ap.add_argument("--keep", help="keep raw transcripts in this folder")
    ap.add_argument("--only", help="run only scenarios whose name contains this")
    a = ap.parse_args()
    eng = Engines(a.rensa, a.rapfi, a.rapfi_home, a.rapfi_scaling)
    rows, details = [], []
    for s in SCENARIOS:
        if a.only and a.only not in s["name"]:
            continue
        t = time.time()
        diffs, notes = run_scenario(eng, s, a.keep)
        bad = [w for w, d in diffs if d]
        rows.append("| %s | %s | %s |" % (s["name"], "different: " + ", ".join(bad) if bad
                                          else "same", "; ".join(notes + [s["note"]]).strip("; ")))
        print(rows[-1], "(%.0f s)" % (time.time() - t), flush=True)
        for w, d in diffs:
            if d:
                details.append("### %s: %s\n\n```diff\n%s\n```\n" % (s["name"], w, "\n".join(d)))
    with open(eng.rensa, "rb") as f:
        ident = hashlib.sha1(f.read()).hexdigest()[:12]
    shutil.rmtree(os.path.dirname(eng.rensa), ignore_errors=True)
    report = ["Rensa `%s` (sha1 %s, built %s); Rapfi `%s`, scaling_factor %s.\n" % (
        eng.rensa_path, ident, eng.rensa_built, eng.rapfi,
        a.rapfi_scaling or "of its model"),
        "| scenario | result | notes |", "|---|---|---|"] + rows + [""] + details
    report += ["Normalisations:"] + ["- " + n for n in NORMALISATIONS]
    text = "\n".join(report) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    print(text)
    return 1 if details else 0

if __name__ == "__main__":
    sys.exit(main())
