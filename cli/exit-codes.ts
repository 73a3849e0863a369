// The exit codes of every pix-conformance command.
/** No clause failed (or only --help was asked for). */
export const EXIT_PASSED = 0
/** A clause failed. */
export const EXIT_FAILED = 1
/** Bad options, or a target (receiver, probe, provider) that cannot be used. */
export const EXIT_UNUSABLE = 2
