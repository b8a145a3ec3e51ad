// Known differences from PyTorch in the torch tier, with the reason: ONE list, so nothing is
// skipped silently. Keys are case names, or "case @mode" for one mode. These tests run as
// it.fails: when a fix lands, the test fails until its entry is removed here.
export const KNOWN_FAILURES: Record<string, string> = {
};
