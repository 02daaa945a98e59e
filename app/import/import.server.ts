// `POST /api/manage/import_articles`: the body read as it streams, then the dry run's plan or the apply.
import type { AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { DomainError } from "~/errors";
import type { PartSource } from "~/models/media.server";
import { applyImport, reportOf, type ImportReport } from "./apply.server";
import type { ColumnMapping } from "./columns";
import { picturesAlreadyShown, planImport } from "./plan.server";
import { receiveImport } from "./receive.server";

export interface ImportAnswer extends ImportReport {
  dryRun: boolean;
  /** Whether anything was written (an apply without row errors). */
  applied: boolean;
  /** The sheet's header row and the mapping used (guessed when none was sent), for the page to show. */
  headers: string[];
  mapping: ColumnMapping;
}

/** An apply refused because rows have errors: nothing was written; the report says which. */
export class RowsRefused extends DomainError {
  constructor(readonly answer: ImportAnswer) {
    super("invalid_input", `${answer.failed} row(s) have errors; nothing was imported`, "rows", "invalid");
  }
}

export async function importArticles(
  deps: { db: Database; bucket: R2Bucket },
  museumId: number,
  actor: AuditActor,
  parts: PartSource,
  dryRun: boolean,
): Promise<ImportAnswer> {
  const shaCache = new Map<string, string | null>();
  const input = await receiveImport(
    parts,
    dryRun
      ? null
      : {
          bucket: deps.bucket,
          museumId,
          prepare: (sheet, mapping) => picturesAlreadyShown(deps.db, deps.bucket, museumId, sheet, mapping, shaCache),
        },
  );
  const base = { dryRun, headers: input.sheet.headers, mapping: input.mapping };
  if (dryRun) {
    const plan = await planImport(deps.db, deps.bucket, museumId, input.sheet, input.mapping, input.images, { dryRun: true, shaCache });
    return { ...reportOf(plan), ...base, applied: false };
  }
  const report = await applyImport(deps.db, deps.bucket, museumId, actor, input, shaCache);
  const answer = { ...report, ...base, applied: report.failed === 0 && report.created + report.updated > 0 };
  if (report.failed > 0) throw new RowsRefused(answer);
  return answer;
}
