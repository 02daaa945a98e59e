import { listGlossary } from "~/models/glossary.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/glossary`: `{ terms: [{ id, term, lang, translation }] }`, lang/translation null = never translated. */
export const loader = readLoader("content.read", ({ user, context }) => listGlossary(context.db, user.museumId));
