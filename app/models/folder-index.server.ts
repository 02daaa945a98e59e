import { ApiError, notFound } from "~/utils/api.server";

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
 * at most, and one query beats a query per path segment.
 */
export class FolderIndex {
  private readonly byId = new Map<number, FolderRow>();
  private readonly children = new Map<number, FolderRow[]>();

  constructor(rows: readonly FolderRow[]) {
    for (const row of rows) {
      this.byId.set(row.id, row);
      const list = this.children.get(key(row.parentId)) ?? [];
      list.push(row);
      this.children.set(key(row.parentId), list);
    }
  }

  get(id: number): FolderRow | undefined {
    return this.byId.get(id);
  }

  liveChildren(parentId: number | null): FolderRow[] {
    return (this.children.get(key(parentId)) ?? []).filter((f) => f.deletedAt === null);
  }

  liveChild(parentId: number | null, name: string): FolderRow | undefined {
    return this.liveChildren(parentId).find((f) => f.name === name);
  }

  /** The live folder at `path` (null for the root), or a 404 naming `field`. */
  resolve(path: readonly string[], field = "pathArray"): number | null {
    let parent: number | null = null;
    for (const [i, name] of path.entries()) {
      const child = this.liveChild(parent, name);
      if (!child) throw notFound(`Folder /${path.slice(0, i + 1).join("/")}`, field);
      parent = child.id;
    }
    return parent;
  }

  /** True when the folder and all its ancestors are live (the root always is). */
  isLive(id: number | null): boolean {
    for (let current = id; current !== null; ) {
      const row = this.byId.get(current);
      if (!row || row.deletedAt !== null) return false;
      current = row.parentId;
    }
    return true;
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
    const names: string[] = [];
    for (let current = id; current !== null; ) {
      const row = this.byId.get(current);
      if (!row) break;
      names.unshift(row.name);
      current = row.parentId;
    }
    return names;
  }

  /** `name`, or `name (2)`, `name (3)`… whichever no live folder under `parentId` holds. */
  freeName(parentId: number | null, name: string): string {
    const taken = new Set(this.liveChildren(parentId).map((f) => f.name));
    if (!taken.has(name)) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name} (${n})`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  assertNameFree(parentId: number | null, name: string, field: string) {
    if (this.liveChild(parentId, name)) {
      throw new ApiError(409, "conflict", `A folder named "${name}" already exists here`, field);
    }
  }
}
