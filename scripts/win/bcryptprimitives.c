/*
 * TEST-ONLY shim: bcryptprimitives.dll exporting ProcessPrng.
 *
 * Rust's std (1.78 and later) on Windows imports ProcessPrng from
 * bcryptprimitives.dll (used to seed HashMap's RandomState, among others).
 * Windows 10/11 ship that DLL; wine 8.0 (Debian bookworm) does not, so an
 * exe that imports it fails to start under wine with "c0000135".
 *
 * scripts/windows.sh builds this file with mingw into the directory that
 * holds the *test copy* of the exe, so that wine finds it there. It is
 * never put into the Gomocup ZIP: on real Windows the system DLL is used.
 *
 * ProcessPrng(PBYTE, SIZE_T) -> BOOL always returns TRUE on Windows; here it
 * forwards to BCryptGenRandom with the system-preferred RNG, in chunks
 * because BCryptGenRandom takes a ULONG length.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData)
{
    while (cbData > 0) {
        ULONG chunk = cbData > 0x40000000u ? 0x40000000u : (ULONG)cbData;
        if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, pbData, chunk,
                                            BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
            return FALSE;
        pbData += chunk;
        cbData -= chunk;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
