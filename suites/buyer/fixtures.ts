// The buyer route (§4.17), shared by the buyer check files. Not a suite file: it declares no check.

export const buyerPath = (uuid: string) => `/credit-card/v1/buyer/${encodeURIComponent(uuid)}`
