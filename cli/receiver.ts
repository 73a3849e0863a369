// `pix-conformance receiver`: its parts are in cli/receiver/ (docs/RECEIVER.md); this is the door
// cli/conformance.ts and the CI examples open.
export { receiverMain, type ReceiverIo } from './receiver/main.ts'
export { RECEIVER_FLAGS, RECEIVER_USAGE } from './receiver/options.ts'
