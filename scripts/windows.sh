#!/usr/bin/env bash
# scripts/windows.sh: build, check, test and package the Windows (Gomocup) build of Rensa on Linux.
#
#   bash scripts/windows.sh deps       install the Debian packages it needs when missing (apt, with retries)
#   bash scripts/windows.sh build      cross-compile target/windows/pbrain-rensa64.exe and check it
#                                      (PE32+ console exe, imports only Windows system DLLs, < 8 MB)
#   bash scripts/windows.sh test       build the Linux binary and the exe, run every
#                                      scripts/transcripts/*.in through both (the exe under wine64)
#                                      and diff their stdout
#   bash scripts/windows.sh package    write the Gomocup ZIP to dist/ and print its size
#   bash scripts/windows.sh ci         deps + build + test + package, every step and the whole bounded
#                                      in time; non-zero exit when anything fails
#   bash scripts/windows.sh startup [N [--fresh-prefix]]
#                                      measure wine start-up overhead against the Linux binary
#   bash scripts/windows.sh check F.exe  run the exe checks (name, PE32+, console, DLLs, size) on F.exe
#
# How the cross build works (rustup cannot fetch the Windows target on these machines):
# Debian's rustc-web/cargo-web (1.96) ship the std *source* (rust-web-src), so std is rebuilt for
# x86_64-pc-windows-gnu with -Zbuild-std (RUSTC_BOOTSTRAP=1 unlocks it on a stable compiler) and
# linked by the mingw-w64 gcc. The rustup toolchain first on PATH has no std source, so Debian's
# cargo and rustc are called by absolute path (found with dpkg -L). The Windows build uses its own
# target dir (target/windows) so it never waits on the lock of the normal target/ builds, and the
# linker and flags are passed through CARGO_TARGET_X86_64_PC_WINDOWS_GNU_* variables, so native
# builds are untouched (no .cargo/config.toml).
#
# Environment knobs (all optional):
#   WIN_CI_BUDGET_S   whole `ci` run limit in seconds (default 840 = 14 min)
#   WIN_BUILD_TIMEOUT_S, LINUX_BUILD_TIMEOUT_S  per cargo build (default 600 each)
#   WIN_REPLY_TIMEOUT_S / LINUX_REPLY_TIMEOUT_S  wait for one answer (default 60 / 30)
#   WIN_RUN_TIMEOUT_S / LINUX_RUN_TIMEOUT_S      one whole transcript (default 240 / 120)
#   WIN_TEST_MESSAGES how MESSAGE/DEBUG lines are compared: mask (default: only wall-clock values,
#                     the numbers after time/nps/speed/tm, are masked), digits (all numbers masked),
#                     exact, or drop
#   WIN_TRANSCRIPTS   space-separated list of transcript files (default scripts/transcripts/*.in)
set -Eeuo pipefail
trap 'printf "[windows.sh] ERROR: unexpected failure (exit %s) at line %s: %s\n" "$?" "$LINENO" "$BASH_COMMAND" >&2' ERR

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
SELF="$ROOT/scripts/windows.sh"

TARGET=x86_64-pc-windows-gnu
BIN=pbrain-rensa
# Gomocup: the name must start with "pbrain-", use only [A-Za-z0-9._-], and a 64-bit exe must
# contain "64" (reference §1.2).
EXE_NAME=pbrain-rensa64.exe
WIN_TARGET_DIR="$ROOT/target/windows"
BUILT_EXE="$WIN_TARGET_DIR/$TARGET/release/$BIN.exe"
OUT_EXE="$WIN_TARGET_DIR/$EXE_NAME"           # the checked exe, as it goes into the ZIP
TEST_DIR="$WIN_TARGET_DIR/wintest"             # test copy of the exe + the test-only DLL shim
RESULTS_DIR="$WIN_TARGET_DIR/transcripts"      # raw and normalised outputs of the last `test`
LINUX_BUILT_BIN="$ROOT/target/release/$BIN"
# The Linux binary is compared from a private copy: target/release is shared with everyone's
# `cargo build --release`, which may replace it while the transcripts run.
LINUX_BIN="$WIN_TARGET_DIR/linux/$BIN"
SHIM_SRC="$ROOT/scripts/win/bcryptprimitives.c"
DIST_DIR="$ROOT/dist"
MAX_EXE_BYTES=8000000                          # Gomocup "AI size 8 MB", read as 8,000,000 bytes to be safe

export WINEPREFIX="$WIN_TARGET_DIR/wineprefix"
# Wine's own errors (err:) go to the exe's stderr, which is kept but never compared: they say why
# wine could not start or run the exe. Only its fixme: notes are silenced.
export WINEDEBUG=fixme-all
# No wine-mono / wine-gecko install prompts (and a faster prefix creation): Rensa needs neither.
export WINEDLLOVERRIDES="mscoree,mshtml="
# Headless: no wine windows (prefix-creation dialogs) on a developer's desktop.
unset DISPLAY WAYLAND_DISPLAY
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ next to scripts/win/drive.py

# CPU baseline. Gomocup's stated baseline is SSE4.1, SSE4.2, POPCNT, AVX, AVX2 (reference §2.1).
# We enable exactly those on top of plain x86-64 (plus SSE3/SSSE3, which every AVX CPU has), and
# deliberately not target-cpu=haswell / x86-64-v3: those also turn on BMI1/BMI2, FMA, LZCNT, MOVBE
# and F16C, which the rules do not promise, and an illegal instruction would cost every game.
# (PEXT/PDEP from BMI2 are microcoded and slow on the Zen 2 EPYCs Gomocup used in 2024 anyway.)
# strip=symbols keeps the exe small; the linker flags link libgcc and any other mingw runtime
# statically (the exe must run with no DLL of ours beside it) and drop the PE time stamp so that
# the same source gives the same bytes.
WIN_RUSTFLAGS="-C target-cpu=x86-64 -C target-feature=+sse3,+ssse3,+sse4.1,+sse4.2,+popcnt,+avx,+avx2 -C strip=symbols -C link-arg=-static -C link-arg=-static-libgcc -C link-arg=-Wl,--no-insert-timestamp"

APT_PACKAGES=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine64 zip unzip python3)

# System DLLs an exe may import: present on every Windows 10/11. Anything else (libgcc_s*,
# libwinpthread*, libstdc++*, vcruntime*, ...) would have to ship in the ZIP, so it fails the build.
SYSTEM_DLL_RE='^(kernel32|kernelbase|ntdll|msvcrt|ucrtbase|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|mswsock|user32|shell32|ole32|oleaut32|secur32|psapi|dbghelp|synchronization|powrprof|winmm|iphlpapi|ncrypt|crypt32|shlwapi|gdi32|version|rpcrt4)\.dll$|^api-ms-win-[a-z0-9-]+\.dll$'

log()  { printf '[windows.sh] %s\n' "$*"; }
die()  { printf '[windows.sh] ERROR: %s\n' "$*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# lim SECONDS: a step's time limit, cut to what is left of the `ci` budget (WIN_DEADLINE, epoch s).
lim() {
    local want=$1 left
    [ -n "${WIN_DEADLINE:-}" ] || { echo "$want"; return; }
    left=$(( WIN_DEADLINE - $(date +%s) ))
    [ "$left" -gt 0 ] || left=1
    echo $(( want < left ? want : left ))
}
budget_check() { # in the main shell, before a timed step
    [ -z "${WIN_DEADLINE:-}" ] || [ "$(date +%s)" -lt "$WIN_DEADLINE" ] \
        || die "ci time budget (${WIN_CI_BUDGET_S:-840} s) exhausted before: $*"
}

# ---------------------------------------------------------------------------------------------
# deps
# ---------------------------------------------------------------------------------------------
missing_packages() {
    local p
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
    done
}

retry() { # retry ATTEMPTS TIMEOUT_S cmd...
    local attempts=$1 limit=$2 i=1 rc
    shift 2
    while :; do
        budget_check "$*"
        rc=0
        timeout -k 15 "$(lim "$limit")" "$@" || rc=$?
        [ "$rc" -eq 0 ] && return 0
        [ "$i" -ge "$attempts" ] && { log "failed $attempts times (last exit $rc): $*"; return "$rc"; }
        log "attempt $i/$attempts failed (exit $rc): $*; retrying in $((i * 10)) s"
        sleep $((i * 10))
        i=$((i + 1))
    done
}

DEPS_DONE=
ensure_deps() {
    [ -n "$DEPS_DONE" ] && return 0
    local missing sudo=
    missing=$(missing_packages | tr '\n' ' ')
    if [ -n "${missing// /}" ]; then
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null || die "need root (or sudo) to install: $missing"
            sudo="sudo -n env DEBIAN_FRONTEND=noninteractive"
        fi
        log "installing Debian packages: $missing"
        local t0=$SECONDS
        export DEBIAN_FRONTEND=noninteractive
        # a dpkg run cut short earlier (seen on a development machine) blocks every install
        # until it is finished: finish it first
        if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
            log "dpkg reports an unfinished run: dpkg --configure -a"
            retry 2 600 $sudo dpkg --configure -a || die "dpkg --configure -a failed"
        fi
        retry 3 300 $sudo apt-get update -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=120 \
            || die "apt-get update failed"
        # shellcheck disable=SC2086
        retry 3 600 $sudo apt-get install -y -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=120 $missing \
            || die "apt-get install failed: $missing"
        missing=$(missing_packages | tr '\n' ' ')
        [ -z "${missing// /}" ] || die "still missing after install: $missing"
        log "packages installed in $((SECONDS - t0)) s"
    fi
    find_tools
    DEPS_DONE=1
}

find_tools() {
    DEB_RUSTC=$(dpkg -L rustc-web | grep -E '^/usr/bin/rustc$' || dpkg -L rustc-web | grep -E '/bin/rustc$' | head -n1)
    DEB_CARGO=$(dpkg -L cargo-web | grep -E '^/usr/bin/cargo$' || dpkg -L cargo-web | grep -E '/bin/cargo$' | grep -v /share/ | head -n1)
    WINE64=$(dpkg -L wine64 | grep -E '/wine64$' | grep -v -E '/(share|doc)/' | head -n1)
    WINESERVER="$(dirname "$WINE64")/wineserver"
    [ -x "$WINESERVER" ] || WINESERVER=$(command -v wineserver || true)
    MINGW_GCC=$(command -v x86_64-w64-mingw32-gcc || true)
    OBJDUMP=$(command -v x86_64-w64-mingw32-objdump || true)
    local t
    for t in DEB_RUSTC DEB_CARGO WINE64 WINESERVER MINGW_GCC OBJDUMP; do
        [ -n "${!t}" ] && [ -x "${!t}" ] || die "tool not found: $t (try: bash scripts/windows.sh deps)"
    done
    local src
    src="$("$DEB_RUSTC" --print sysroot)/lib/rustlib/src/rust/library/std"
    [ -d "$src" ] || die "Debian rustc has no std source at $src (package rust-web-src)"
}

cmd_deps() {
    ensure_deps
    log "rustc: $DEB_RUSTC ($("$DEB_RUSTC" --version))"
    log "cargo: $DEB_CARGO ($("$DEB_CARGO" --version))"
    log "mingw: $MINGW_GCC ($("$MINGW_GCC" -dumpversion))"
    log "wine:  $WINE64 ($("$WINE64" --version 2>/dev/null || echo '?'))"
}

# ---------------------------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------------------------
WIN_BUILT=
build_windows() {
    [ -n "$WIN_BUILT" ] && return 0
    ensure_deps
    local t0=$SECONDS rc=0
    budget_check "Windows build"
    log "cargo build (Debian cargo, -Zbuild-std) for $TARGET into target/windows ..."
    (
        unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS RUSTC_WRAPPER \
              CARGO_BUILD_RUSTC_WRAPPER CARGO_BUILD_TARGET RUSTUP_TOOLCHAIN
        export RUSTC="$DEB_RUSTC" RUSTDOC="${DEB_RUSTC%/*}/rustdoc" RUSTC_BOOTSTRAP=1 \
               CARGO_TARGET_DIR="$WIN_TARGET_DIR" \
               CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER="$MINGW_GCC" \
               CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="$WIN_RUSTFLAGS"
        exec timeout -k 15 "$(lim "${WIN_BUILD_TIMEOUT_S:-600}")" "$DEB_CARGO" build --release \
            -Zbuild-std=std,panic_abort --target "$TARGET" --bin "$BIN"
    ) || rc=$?
    [ "$rc" -eq 0 ] || die "Windows build failed (exit $rc$([ "$rc" -eq 124 ] && echo ', timed out'))"
    [ -f "$BUILT_EXE" ] || die "build produced no $BUILT_EXE"
    install -m 0755 "$BUILT_EXE" "$OUT_EXE"
    check_exe "$OUT_EXE"
    log "Windows build took $((SECONDS - t0)) s"
    WIN_BUILT=1
}

check_exe() {
    local exe=$1 name size dlls dll bad=0 hdr
    name=$(basename "$exe")
    [[ "$name" =~ ^pbrain-[A-Za-z0-9._-]+\.exe$ ]] || die "exe name '$name' breaks Gomocup naming rules"
    [[ "$name" == *64* ]] || die "64-bit exe name '$name' must contain '64'"
    hdr=$("$OBJDUMP" -p "$exe")
    grep -q 'file format pei-x86-64' <<<"$hdr" || die "$name is not a PE32+ x86-64 image"
    grep -Eq '^Subsystem[[:space:]]+00000003' <<<"$hdr" || die "$name is not a console (CUI) program"
    # (std's raw-dylib imports name kernel32/ntdll a second time in lower case: list each once)
    dlls=$(sed -n 's/^[[:space:]]*DLL Name: //p' <<<"$hdr" | tr -d '\r' | sort -fu)
    for dll in $dlls; do
        if ! [[ "${dll,,}" =~ $SYSTEM_DLL_RE ]]; then
            printf '[windows.sh] ERROR: %s imports non-system DLL %s%s\n' "$name" "$dll" \
                "$([[ "${dll,,}" =~ ^lib ]] && echo ' (mingw runtime: must be linked statically)')" >&2
            bad=1
        fi
    done
    [ "$bad" -eq 0 ] || die "$name would need DLLs that Windows does not ship (see above); if one is a real Windows system DLL, add it to SYSTEM_DLL_RE"
    size=$(stat -c %s "$exe")
    [ "$size" -lt "$MAX_EXE_BYTES" ] || die "$name is $size bytes, over Gomocup's 8 MB"
    log "checked $name: PE32+ console exe, $size bytes ($((size / 1024)) KiB), imports: $(echo $dlls | tr ' ' ',')"
}

cmd_build() { build_windows; log "exe: $OUT_EXE"; }

LINUX_BUILT=
build_linux() {
    [ -n "$LINUX_BUILT" ] && return 0
    local t0=$SECONDS rc=0
    budget_check "Linux build"
    log "cargo build --release (native, for the comparison) ..."
    (
        unset CARGO_TARGET_DIR CARGO_BUILD_TARGET
        exec timeout -k 15 "$(lim "${LINUX_BUILD_TIMEOUT_S:-600}")" "${CARGO:-cargo}" build --release --bin "$BIN"
    ) || rc=$?
    [ "$rc" -eq 0 ] || die "Linux build failed (exit $rc$([ "$rc" -eq 124 ] && echo ', timed out'))"
    [ -x "$LINUX_BUILT_BIN" ] || die "no Linux binary at $LINUX_BUILT_BIN"
    mkdir -p "${LINUX_BIN%/*}"
    install -m 0755 "$LINUX_BUILT_BIN" "$LINUX_BIN"
    log "Linux build took $((SECONDS - t0)) s"
    LINUX_BUILT=1
}

# ---------------------------------------------------------------------------------------------
# wine
# ---------------------------------------------------------------------------------------------
prepare_testdir() {
    mkdir -p "$TEST_DIR"
    install -m 0755 "$OUT_EXE" "$TEST_DIR/$EXE_NAME"
    # Test-only: wine 8.0 lacks bcryptprimitives.dll (ProcessPrng), which Rust's std imports and
    # Windows 10/11 ship. The DLL sits next to the test copy only, never in dist/ or the ZIP.
    if [ ! -f "$TEST_DIR/bcryptprimitives.dll" ] || [ "$SHIM_SRC" -nt "$TEST_DIR/bcryptprimitives.dll" ]; then
        timeout "$(lim 120)" "$MINGW_GCC" -O2 -shared -static-libgcc -s -Wall \
            -o "$TEST_DIR/bcryptprimitives.dll" "$SHIM_SRC" -lbcrypt \
            || die "building the test shim bcryptprimitives.dll failed"
    fi
}

WINE_UP=
wine_up() {
    [ -n "$WINE_UP" ] && return 0
    local t0 rc=0
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        budget_check "wine prefix creation"
        log "creating wine prefix $WINEPREFIX (first start is slow) ..."
        t0=$(now_ms)
        rm -rf "$WINEPREFIX"
        timeout -k 10 "$(lim 300)" "$WINE64" wineboot -i >/dev/null 2>&1 || rc=$?
        timeout -k 10 "$(lim 120)" "$WINESERVER" -w || true
        [ "$rc" -eq 0 ] && [ -f "$WINEPREFIX/system.reg" ] \
            || die "wine prefix creation failed (exit $rc)"
        log "wine prefix created in $(( $(now_ms) - t0 )) ms"
    fi
    # A wineserver kept alive between the runs (it exits by itself 30 s after the last client,
    # and is stopped on exit below), so every transcript pays only the process start.
    "$WINESERVER" -p30 || true
    trap wine_down EXIT
    WINE_UP=1
}

wine_down() {
    [ -n "$WINE_UP" ] && timeout 30 "$WINESERVER" -k >/dev/null 2>&1 || true
    WINE_UP=
}

# ---------------------------------------------------------------------------------------------
# test: transcripts through both binaries
# ---------------------------------------------------------------------------------------------
normalise() { # stdin -> stdout: CR LF / CR -> LF, drop empty lines, MESSAGE/DEBUG per WIN_TEST_MESSAGES
    local mode=${WIN_TEST_MESSAGES:-mask}
    sed -e 's/\r$//' -e 's/\r/\n/g' | sed -e '/^[[:space:]]*$/d' |
    case "$mode" in
        exact)  cat ;;
        drop)   sed -E '/^(message|debug)( |$)/Id' ;;
        # wall-clock values only: the number after time/nps/speed/tm/elapsed/n/s/n/ms and any
        # number with a time unit; depth, nodes, eval and PV stay exact (they are deterministic
        # under INFO max_depth / max_node).
        mask)   sed -E '/^(message|debug)( |$)/I {
                    s#\b(time|nps|speed|tm|elapsed|n/s|n/ms)([ =:]+)[0-9][0-9.]*[a-z]*#\1\2<t>#Ig
                    s#\b[0-9][0-9.]*(ms|us|s|min|h)\b#<t>#g
                }' ;;
        digits) sed -E '/^(message|debug)( |$)/I s/[0-9]+/#/g' ;;
        *)      die "WIN_TEST_MESSAGES must be mask, digits, exact or drop" ;;
    esac
}

DRIVER="$ROOT/scripts/win/drive.py"

run_one() { # run_one KIND TRANSCRIPT OUTBASE -> sets RUN_RC (brain exit), RUN_VERDICT, RUN_MS, RUN_SUMMARY
    local kind=$1 in=$2 out=$3 t0 reply_s limit cmd summary drc=0
    if [ "$kind" = linux ]; then
        reply_s=${LINUX_REPLY_TIMEOUT_S:-30}; limit=${LINUX_RUN_TIMEOUT_S:-120}; cmd=("$LINUX_BIN")
    else
        reply_s=${WIN_REPLY_TIMEOUT_S:-60}; limit=${WIN_RUN_TIMEOUT_S:-240}
        cmd=("$WINE64" "$TEST_DIR/$EXE_NAME")
    fi
    t0=$(now_ms)
    # The driver bounds every answer (reply_s) and END; `timeout` bounds the whole transcript.
    summary=$(cd "$TEST_DIR" && timeout -k 5 "$(lim "$limit")" python3 "$DRIVER" --reply-timeout "$reply_s" \
        "$in" "$out.out" "$out.err" -- "${cmd[@]}") || drc=$?
    RUN_MS=$(( $(now_ms) - t0 ))
    summary=$(tail -n1 <<<"$summary")
    [ "$drc" -eq 0 ] || summary="exit=? verdict=driver-failed($drc)"
    RUN_SUMMARY=$summary
    RUN_RC=$(sed -n 's/.*exit=\([^ ]*\).*/\1/p' <<<"$summary")
    RUN_VERDICT=$(sed -n 's/.*verdict=\([^ ]*\).*/\1/p' <<<"$summary")
    echo "$summary" >"$out.summary"
    [ -f "$out.out" ] || : >"$out.out"
    normalise <"$out.out" >"$out.norm"
}

# Both binaries must come from the same sources. If a file under src/ (or Cargo.*) changes while
# the two builds run (someone editing the tree), build both again, up to 3 times.
build_both() {
    local stamp="$WIN_TARGET_DIR/.build-stamp" changed
    mkdir -p "$WIN_TARGET_DIR"
    for _ in 1 2 3; do
        touch "$stamp"
        build_linux
        build_windows
        changed=$( (find src Cargo.toml Cargo.lock build.rs -newer "$stamp" -type f 2>/dev/null || true) | head -n 5)
        [ -z "$changed" ] && return 0
        log "sources changed during the builds ($(echo $changed)); building both again"
        LINUX_BUILT='' WIN_BUILT=''
        sleep 2
    done
    die "sources kept changing during the builds; the comparison would not be fair"
}

# wine_flake BASE LINUX_RC LINUX_VERDICT WINE_RC WINE_VERDICT -> "TAG why" when the wine run
# failed in a way that is wine's own, not the exe's (the transcript then runs once more, and a
# second failure or any other difference still fails); nothing otherwise.
wine_flake() {
    local base=$1 lrc=$2 lv=$3 wrc=$4 wv=$5
    # Killed by a signal after answering all, exactly as Linux did: the exe exits through
    # ExitProcess and has no signal of its own, so the kill came from wine's teardown (seen
    # once in CI, -9 on the first transcript after the prefix was made, on a loaded machine).
    if [ "$wv" = ok ] && [[ "$wrc" == -* ]] && [ "$lrc" = 0 ] && cmp -s "$base.linux.norm" "$base.wine.norm"; then
        echo "killed killed by signal ${wrc#-} after the same output"
    # Gone before its first answer, where Linux answered, and not a word from the exe on stderr
    # (its own failures print there: a panic, an error, the log): wine failed to start it.
    # Seen once in CI (exit 1, 06-malformed, the sixth start on a warm wineserver, wine's
    # errors silenced then).
    elif [ "$wv" = died ] && [ "$lv" = ok ] && grep -q 'answers=0 ' "$base.wine.summary" \
        && ! grep -q -E 'rensa|panicked|^Error' "$base.wine.err" && [ -s "$base.linux.norm" ]; then
        echo "nostart ended (exit $wrc) before its first answer, the exe silent"
    fi
}

cmd_test() {
    build_both
    prepare_testdir
    wine_up
    command -v python3 >/dev/null || die "python3 missing (run deps)"
    rm -rf "$RESULTS_DIR"; mkdir -p "$RESULTS_DIR"
    # One start before the transcripts: a new prefix starts wine's own services with the first
    # process, which must not share the machine with a measured transcript.
    local t0
    t0=$(now_ms)
    (cd "$TEST_DIR" && printf 'START 15\r\nEND\r\n' | timeout -k 5 "$(lim 120)" "$WINE64" "./$EXE_NAME" >/dev/null 2>&1) || true
    sleep 1
    log "wine warm-up start: $(( $(now_ms) - t0 )) ms"
    local files=() f name base pass=0 fail=0 why lrc lms lv wrc wms wv flake
    if [ -n "${WIN_TRANSCRIPTS:-}" ]; then read -r -a files <<<"$WIN_TRANSCRIPTS"
    else files=("$ROOT"/scripts/transcripts/*.in); fi
    [ -e "${files[0]}" ] || die "no transcripts found"
    for f in "${files[@]}"; do
        [ -f "$f" ] || die "no transcript $f"
        budget_check "transcript $f"
        f=$(realpath "$f")
        name=$(basename "$f" .in); base="$RESULTS_DIR/$name"; why=
        run_one linux "$f" "$base.linux"; lrc=$RUN_RC; lms=$RUN_MS; lv=$RUN_VERDICT
        [ "$lv" = ok ] || why="Linux binary: $RUN_SUMMARY"
        if [ -z "$why" ]; then
            run_one linux "$f" "$base.linux2"
            if ! cmp -s "$base.linux.norm" "$base.linux2.norm" || [ "$lrc" != "$RUN_RC" ]; then
                why="not deterministic: two Linux runs differ (use INFO max_depth / max_node, forced positions)"
                diff -u "$base.linux.norm" "$base.linux2.norm" | head -n 30 >&2 || true
            fi
        fi
        run_one wine "$f" "$base.wine"; wrc=$RUN_RC; wms=$RUN_MS; wv=$RUN_VERDICT
        flake=$(wine_flake "$base" "$lrc" "$lv" "$wrc" "$wv")
        if [ -n "$flake" ]; then
            log "wine: $name ${flake#* }; running it once more"
            [ "${flake%% *}" = nostart ] && [ -s "$base.wine.err" ] && head -n 5 "$base.wine.err" >&2
            mv "$base.wine.summary" "$base.wine-${flake%% *}.summary"
            run_one wine "$f" "$base.wine"; wrc=$RUN_RC; wms=$RUN_MS; wv=$RUN_VERDICT
        fi
        if [ -z "$why" ]; then
            if [ "$wv" != ok ]; then
                why="exe under wine: $RUN_SUMMARY"
                [ "$wrc" = 53 ] && why="$why; wine exit 53 = c0000135 STATUS_DLL_NOT_FOUND: the exe imports a DLL wine lacks (try WINEDEBUG=+module)"
            elif ! cmp -s "$base.linux.norm" "$base.wine.norm"; then
                why="stdout differs (linux exit $lrc, wine exit $wrc)"
            elif [ "$lrc" != "$wrc" ]; then
                why="exit status differs: linux $lrc, wine $wrc"
            fi
        fi
        if [ -z "$why" ]; then
            pass=$((pass + 1))
            log "PASS $name ($(grep -c . "$base.linux.norm") lines; linux ${lms} ms, wine ${wms} ms)"
        else
            fail=$((fail + 1))
            log "FAIL $name: $why"
            log "     outputs: ${base#"$ROOT/"}.{linux,linux2,wine}.{out,err,norm,summary}"
            if [ -f "$base.wine.norm" ] && ! cmp -s "$base.linux.norm" "$base.wine.norm"; then
                diff -u --label "linux/$name" --label "wine/$name" "$base.linux.norm" "$base.wine.norm" \
                    | head -n 40 >&2 || true
            fi
            [ -s "$base.wine.err" ] && { echo "--- wine stderr (head):" >&2; head -n 10 "$base.wine.err" >&2; }
        fi
    done
    # Gomocup pins each engine to one CPU (start /affinity 1): the exe must read its process
    # affinity mask (std's CPU count ignores it on Windows) and run one search thread
    if command -v taskset >/dev/null; then
        local pinned
        pinned=$(cd "$TEST_DIR" && printf 'START 15\r\nINFO thread_num 4\r\nEND\r\n' \
            | timeout -k 5 "$(lim 120)" taskset -c 0 "$WINE64" "./$EXE_NAME" 2>/dev/null | tr -d '\r')
        if grep -q '^MESSAGE thread_num 4: 1 search thread(s) run, this process may run on 1 CPU' <<<"$pinned"; then
            pass=$((pass + 1))
            log "PASS affinity: pinned to one CPU, the exe runs one search thread"
        else
            fail=$((fail + 1))
            log "FAIL affinity: pinned to one CPU, the exe answered: $(tr '\n' '|' <<<"$pinned")"
        fi
    fi
    wine_down
    echo "transcripts: $pass passed, $fail failed"
    [ "$fail" -eq 0 ] || exit 1
}

# ---------------------------------------------------------------------------------------------
# package
# ---------------------------------------------------------------------------------------------
cmd_package() {
    build_windows
    command -v zip >/dev/null && command -v unzip >/dev/null || die "zip/unzip missing (run deps)"
    local version stage zipf listing size esize epoch
    version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n1)
    stage="$WIN_TARGET_DIR/package"
    zipf="$DIST_DIR/rensa-${version:-dev}-gomocup.zip"
    rm -rf "$stage"; mkdir -p "$stage" "$DIST_DIR"; rm -f "$zipf"
    install -m 0755 "$OUT_EXE" "$stage/$EXE_NAME"
    # Fixed time stamp (last commit) and no extra attributes: same exe -> same ZIP bytes.
    epoch=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || echo 1700000000)
    touch -d "@$epoch" "$stage/$EXE_NAME"
    (cd "$stage" && TZ=UTC zip -X -9 -q "$zipf" "$EXE_NAME") || die "zip failed"
    unzip -tq "$zipf" >/dev/null || die "zip test failed"
    listing=$(unzip -Z1 "$zipf")
    [ "$listing" = "$EXE_NAME" ] || die "ZIP must hold exactly $EXE_NAME at its root, holds: $listing"
    check_exe "$stage/$EXE_NAME"
    size=$(stat -c %s "$zipf"); esize=$(stat -c %s "$OUT_EXE")
    log "ZIP: ${zipf#"$ROOT/"}: $size bytes ($((size / 1024)) KiB), holds $EXE_NAME ($esize bytes unpacked)"
    echo "$zipf $size"
}

# ---------------------------------------------------------------------------------------------
# startup: wine overhead (START/END) against the Linux binary
# ---------------------------------------------------------------------------------------------
time_runs() { # time_runs N cmd... -> prints "min/median/max ms"
    local n=$1 i t0 ts=()
    shift
    for ((i = 0; i < n; i++)); do
        t0=$(now_ms)
        printf 'START 15\r\nEND\r\n' | "$@" >/dev/null 2>&1 || true
        ts+=($(( $(now_ms) - t0 )))
    done
    printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {printf "min %d / median %d / max %d ms (%d runs)", a[1], a[int((NR+1)/2)], a[NR], NR}'
}

cmd_startup() {
    build_both; prepare_testdir
    local n=${1:-10}
    cd "$TEST_DIR"
    if [ "${2:-}" = --fresh-prefix ]; then
        log "removing the wine prefix to time a first start"; timeout 30 "$WINESERVER" -k 2>/dev/null || true
        rm -rf "$WINEPREFIX"
        local t1
        t1=$(now_ms)
        log "first start, exe answered and exited: $(time_runs 1 timeout 300 "$WINE64" "./$EXE_NAME")"
        timeout 300 "$WINESERVER" -w || true
        log "first start, prefix fully written:    $(( $(now_ms) - t1 )) ms"
    fi
    wine_up
    log "linux binary:                  $(time_runs "$n" "$LINUX_BIN")"
    log "wine, wineserver already up:   $(time_runs "$n" "$WINE64" "./$EXE_NAME")"
    wine_down
    local i ts=() t0
    for ((i = 0; i < n; i++)); do
        timeout 30 "$WINESERVER" -k 2>/dev/null || true; timeout 30 "$WINESERVER" -w 2>/dev/null || true
        t0=$(now_ms); printf 'START 15\r\nEND\r\n' | "$WINE64" "./$EXE_NAME" >/dev/null 2>&1 || true
        ts+=($(( $(now_ms) - t0 )))
    done
    log "wine, no wineserver running:   $(printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {printf "min %d / median %d / max %d ms (%d runs)", a[1], a[int((NR+1)/2)], a[NR], NR}')"
    timeout 30 "$WINESERVER" -k 2>/dev/null || true
}

# ---------------------------------------------------------------------------------------------
# ci
# ---------------------------------------------------------------------------------------------
cmd_ci() {
    local budget=${WIN_CI_BUDGET_S:-840} rc=0 t0=$SECONDS
    log "ci: deps + build + test + package, at most $budget s"
    # Every step's own limit is cut to the time left (lim); the outer timeout is a safety net.
    export WIN_DEADLINE=$(( $(date +%s) + budget ))
    timeout -k 30 "$((budget + 60))" bash "$SELF" _ci || rc=$?
    [ "$rc" -eq 124 ] && log "ci: TIMED OUT after $((budget + 60)) s"
    log "ci: finished in $((SECONDS - t0)) s, exit $rc"
    exit "$rc"
}

step() { # step NAME fn
    local t0=$SECONDS
    log "=== $1"
    "$2"
    log "=== $1 done in $((SECONDS - t0)) s"
}

cmd_ci_inner() {
    step deps cmd_deps
    step build cmd_build
    step test cmd_test
    step package cmd_package
}

case "${1:-}" in
    deps)    cmd_deps ;;
    build)   cmd_build ;;
    test)    cmd_test ;;
    package) cmd_package ;;
    ci)      cmd_ci ;;
    _ci)     cmd_ci_inner ;;
    startup) shift; ensure_deps; cmd_startup "$@" ;;
    check)   [ -n "${2:-}" ] || die "usage: windows.sh check FILE.exe"; ensure_deps; check_exe "$2" ;;
    *)       sed -n '2,/^# How the cross/p' "$SELF" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
esac
