import { conflict, notFound } from "~/errors";
import { NAME_MAX_LENGTH } from "~/lib/names";

/** At most `max` UTF-16 units, never splitting a surrogate pair, without trailing spaces. */
function cutName(name: string, max: number): string {
  if (name.length <= max) return name;
  let cut = name.slice(0, max);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trimEnd();
}

export interface FolderRow {
  id: number;
  parentId: number | null;
  name: string;
  deletedAt: number | null;
}

const ROOT = 0;
const key = (parentId: number | null) => parentId ?? ROOT;

/**
 * All folders of one museum, live and trashed, indexed in memory: a museum has hundreds of folders
 * at most, and one query beats a query per path segment. Every walk is bounded by the number of
 * folders, so even a parent loop in stored data cannot hang a request.
 */
export class FolderIndex {
  private readonly byId = new Map<number, FolderRow>();
  private readonly children = new Map<number, FolderRow[]>();
  /** Folders whose parent chain loops back on itself (never reachable from the root). */
  readonly cycleIds: number[];

  constructor(rows: readonly FolderRow[]) {
    for (const row of rows) {
      this.byId.set(row.id, row);
      const list = this.children.get(key(row.parentId)) ?? [];
      list.push(row);
      this.children.set(key(row.parentId), list);
    }
    this.cycleIds = this.findCycles();
  }

  /** Each folder's chain is walked once: "done" folders end a walk, meeting the current walk is a loop. */
  private findCycles(): number[] {
    const state = new Map<number, "walking" | "done">();
    const onCycle: number[] = [];
    for (const start of this.byId.keys()) {
      const chain: number[] = [];
      let current: number | null = start;
      while (current !== null && !state.has(current) && this.byId.has(current)) {
        state.set(current, "walking");
        chain.push(current);
        current = this.byId.get(current)!.parentId;
      }
      if (current !== null && state.get(current) === "walking") {
        onCycle.push(...chain.slice(chain.indexOf(current)));
      }
      for (const id of chain) state.set(id, "done");
    }
    return onCycle;
  }

  get(id: number): FolderRow | undefined {
    return this.byId.get(id);
  }

  liveChildren(parentId: number | null): FolderRow[] {
    return (this.children.get(key(parentId)) ?? []).filter((f) => f.deletedAt === null);
  }

  liveChild(parentId: number | null, name: string): FolderRow | undefined {
    const wanted = name.normalize("NFC");
    return this.liveChildren(parentId).find((f) => f.name === wanted);
  }

  /** The live folder at `path` (null for the root), or a 404 naming `field`. */
  resolve(path: readonly string[], field = "pathArray"): number | null {
    let parent: number | null = null;
    for (const [i, name] of path.entries()) {
      const child = this.liveChild(parent, name);
      if (!child) throw notFound(`Folder ${i + 1} of the path`, field);
      parent = child.id;
    }
    return parent;
  }

  /** The chain from `id` up to the root, at most one step per folder (a loop ends the walk). */
  private ancestry(id: number | null): { rows: FolderRow[]; reachesRoot: boolean } {
    const rows: FolderRow[] = [];
    const seen = new Set<number>();
    for (let current = id; current !== null;) {
      const row = this.byId.get(current);
      if (!row || seen.has(current)) return { rows, reachesRoot: false };
      seen.add(current);
      rows.push(row);
      current = row.parentId;
    }
    return { rows, reachesRoot: true };
  }

  /** True when the folder and all its ancestors are live (the root always is). */
  isLive(id: number | null): boolean {
    const { rows, reachesRoot } = this.ancestry(id);
    return reachesRoot && rows.every((row) => row.deletedAt === null);
  }

  /**
   * Whether `path` (folder names from the root) leads into the trash: no live folder is at that path, but a
   * trashed one is, or a folder inside one. Each name is matched among the live folders first.
   */
  pathInTrash(path: readonly string[]): boolean {
    let parent: number | null = null;
    let trashed = false;
    for (const name of path) {
      const wanted = name.normalize("NFC");
      const named: FolderRow[] = (this.children.get(key(parent)) ?? []).filter((f) => f.name === wanted);
      const child: FolderRow | undefined = named.find((f) => f.deletedAt === null) ?? named[0];
      if (!child) return false;
      trashed ||= child.deletedAt !== null;
      parent = child.id;
    }
    return trashed;
  }

  /** Ids of every folder below `id`, live or not. */
  descendants(id: number): Set<number> {
    const out = new Set<number>();
    const stack = [id];
    while (stack.length > 0) {
      for (const child of this.children.get(stack.pop()!) ?? []) {
        if (!out.has(child.id)) {
          out.add(child.id);
          stack.push(child.id);
        }
      }
    }
    return out;
  }

  path(id: number | null): string[] {
    return this.ancestry(id)
      .rows.map((row) => row.name)
      .reverse();
  }

  /**
   * `name`, or `name (2)`, `name (3)`… whichever no live folder under `parentId` holds, the name cut so
   * that the whole stays within the 100 characters every name must fit (a longer one could not be moved).
   */
  freeName(parentId: number | null, name: string): string {
    const taken = new Set(this.liveChildren(parentId).map((f) => f.name));
    if (!taken.has(name)) return name;
    for (let n = 2; ; n++) {
      const suffix = ` (${n})`;
      const candidate = `${cutName(name, NAME_MAX_LENGTH - suffix.length)}${suffix}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  assertNameFree(parentId: number | null, name: string, field: string) {
    if (this.liveChild(parentId, name)) throw folderNameTaken(field);
  }
}

export const folderNameTaken = (field: string) => conflict(field, "A folder with this name already exists here");
