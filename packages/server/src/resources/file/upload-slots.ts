/**
 * Bounds on uploads in progress: at most `perServer` at once on this node and `perUser` for one user.
 * Both are counted in this node's memory, so with several nodes behind a load balancer the bounds hold
 * per node (a user could run perUser uploads on each node). That is enough for their purpose, to keep
 * one node's memory, disk and database connections safe, and it needs nothing shared between nodes.
 */
export class UploadSlots {
  private total = 0;
  private readonly byUser = new Map<number, number>();

  constructor(
    private readonly perServer: number,
    private readonly perUser: number,
  ) {}

  /** Takes a slot for the user; the returned function gives it back (once, however often called). Null when full. */
  acquire(userId: number): (() => void) | null {
    const own = this.byUser.get(userId) ?? 0;
    if (this.total >= this.perServer || own >= this.perUser) return null;
    this.total += 1;
    this.byUser.set(userId, own + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    };
  }
}
