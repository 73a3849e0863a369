// One observe session: exchanges go in one at a time, in the order the application saw them;
// each is matched to its operation and given to the one-exchange rules and to the model.
import { matchOperation, type ObservedExchange } from './exchanges.ts'
import { Model } from './model.ts'
import { judgeNotification } from './notifications.ts'
import { judgeExchange } from './rules.ts'
import { Tally } from './verdicts.ts'

export class Judge {
  readonly tally = new Tally()
  private readonly model: Model
  /** Exchanges that were a request of the interface (the headline counts these). */
  judged = 0
  /** Exchanges of no operation of the interface (assets, other APIs, paths it does not show). */
  unmatched = 0
  /** A rule that threw: a defect of the kit, never a verdict on the target. */
  readonly errors: string[] = []
  private finished = false

  /** basePaths: the path of each API's base URL, taken off before matching (`/sandbox` of https://host/sandbox). */
  /** accounts: each account's client id and API key from the settings, so the model joins both APIs' views of one account. */
  constructor(private readonly basePaths: readonly string[] = [], accounts: readonly { clientId: string; apiKey: string }[] = []) {
    this.model = new Model(this.tally.emit, accounts)
  }

  add(ex: ObservedExchange): void {
    if (ex.notification) return this.addNotification(ex)
    const m = matchOperation(ex.request.method, ex.request.url, this.basePaths)
    try {
      if (m) {
        this.judged++
        judgeExchange(ex, m, this.tally.emit, this.model)
      } else this.unmatched++
      this.model.observe(ex, m)
    } catch (e) {
      if (this.errors.length < 20) this.errors.push(`exchange ${ex.seq} (${ex.request.method} ${pathOnly(ex.request.url)}): the kit's rule failed: ${(e as Error).stack ?? String(e)}`)
    }
  }

  /** Notifications the relay carried. */
  notifications = 0

  private addNotification(ex: ObservedExchange): void {
    this.notifications++
    try {
      judgeNotification(ex, this.tally.emit)
      this.model.notification(ex)
    } catch (e) {
      if (this.errors.length < 20) this.errors.push(`notification ${ex.seq}: the kit's rule failed: ${(e as Error).stack ?? String(e)}`)
    }
  }

  /** Whose records an exchange touched, as the model sees it: a label safe to write down. */
  accountOf(ex: ObservedExchange): string {
    return this.model.accountOf(ex)
  }

  /** The rules that compare surfaces run once; call before reading the tally. */
  finish(): Tally {
    if (!this.finished) {
      this.finished = true
      try {
        this.model.finish()
      } catch (e) {
        this.errors.push(`the kit's cross-surface rules failed: ${(e as Error).stack ?? String(e)}`)
      }
    }
    return this.tally
  }
}

function pathOnly(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url.split('?')[0] ?? url
  }
}
