import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Times are stored as integer milliseconds since the epoch (UTC), days as "YYYY-MM-DD" strings
// in the museum's own timezone.
const createdAt = () =>
  integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch() * 1000)`);

export const museums = sqliteTable(
  "museums",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    sourceLang: text("source_lang").notNull().default("fr"),
    timezone: text("timezone").notNull().default("Europe/Paris"),
    createdAt: createdAt(),
    /** Set while an operator has suspended the museum (0015, decision 147); null otherwise. */
    suspendedAt: integer("suspended_at", { mode: "number" }),
    /** The museum's own monthly bounds (decision 148); null = the deployment's default. */
    translationMonthlyChars: integer("translation_monthly_chars", { mode: "number" }),
    narrationMonthlyChars: integer("narration_monthly_chars", { mode: "number" }),
    /** Answers to visitors' questions composed per month (0017, decision 151); null = the deployment's default. */
    questionsMonthly: integer("questions_monthly", { mode: "number" }),
    /** Set when an operator closed it: its archive is kept 30 days, then everything is purged (decision 148). */
    closedAt: integer("closed_at", { mode: "number" }),
  },
  (t) => [uniqueIndex("museums_slug_unique").on(t.slug)],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
    // Teams (0008, issue 18, decision 040). Existing users became admins; code always sets the role.
    role: text("role", { enum: ["admin", "editor", "translator", "viewer"] })
      .notNull()
      .default("admin"),
    /** A translator's languages, a JSON array of codes; "[]" = every language. */
    languages: text("languages").notNull().default("[]"),
    /** The last request made with any of the user's sessions (updated at most every few minutes). */
    lastActiveAt: integer("last_active_at", { mode: "number" }),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_museum_idx").on(t.museumId)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 (hex) of the cookie token: a leaked table does not yield usable cookies.
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    createdAt: createdAt(),
    /** The browser's User-Agent at login (cut to 300 characters), to name the device in /settings (0008). */
    userAgent: text("user_agent").notNull().default(""),
    lastSeenAt: integer("last_seen_at", { mode: "number" }),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const loginAttempts = sqliteTable("login_attempts", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start", { mode: "number" }).notNull(),
  count: integer("count").notNull(),
});

export const folders = sqliteTable(
  "folders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    parentId: integer("parent_id"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    deletedAt: integer("deleted_at", { mode: "number" }),
  },
  (t) => [
    index("folders_parent_idx").on(t.museumId, t.parentId),
    // Folder names are ids in the spec's API: unique among live siblings (root = parent 0).
    uniqueIndex("folders_live_sibling_name_unique")
      .on(t.museumId, sql`coalesce(${t.parentId}, 0)`, t.name)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const articles = sqliteTable(
  "articles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
    slug: text("slug").notNull(),
    unformattedName: text("unformatted_name").notNull(),
    content: text("content").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "number" }),
    // Drafts and publishing (0008, issue 18, decision 041). `content` and `version` are the draft staff
    // edit; visitors see `published_content` (null = never published: "not available yet").
    publishedContent: text("published_content"),
    /** The draft `version` that was published last; the article has a draft when it differs. */
    publishedVersion: integer("published_version"),
    publishedAt: integer("published_at", { mode: "number" }),
    /** A scheduled publication of the draft (epoch ms); null = none. */
    publishAt: integer("publish_at", { mode: "number" }),
    /** Who scheduled it (publishes under their name). */
    publishAtBy: integer("publish_at_by"),
    /** The user who saved the draft last (for conflicts and history); no foreign key: members may leave. */
    updatedBy: integer("updated_by"),
    /**
     * The short number printed on the label under the article's code, typed on the keypad page (0009,
     * issue 21): 1–9999, unique among the museum's articles; null = none. Trashing an article frees it.
     */
    stopNumber: integer("stop_number"),
  },
  (t) => [
    uniqueIndex("articles_museum_slug_unique").on(t.museumId, t.slug),
    index("articles_folder_idx").on(t.museumId, t.folderId),
    index("articles_publish_at_idx").on(t.publishAt),
    uniqueIndex("articles_museum_stop_number_unique")
      .on(t.museumId, t.stopNumber)
      .where(sql`${t.stopNumber} IS NOT NULL`),
  ],
);

/**
 * Every publication of an article (0008, decision 042): `number` counts 1, 2, … per article. The newest 50
 * per article are kept at least; the media they reference are not purged while a kept version uses them.
 * `publishedByEmail` is a snapshot: the version stays attributed when its author leaves the team.
 */
export const articleVersions = sqliteTable(
  "article_versions",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    content: text("content").notNull(),
    name: text("name").notNull(),
    publishedAt: integer("published_at", { mode: "number" }).notNull(),
    publishedBy: integer("published_by"),
    publishedByEmail: text("published_by_email").notNull().default(""),
    note: text("note").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.number] }), index("article_versions_museum_idx").on(t.museumId)],
);

/**
 * Invitations and password-reset links (0008, decision 040): only the SHA-256 of the token is stored; single
 * use (`usedAt`), expiring, revocable. `email`, `role`, `languages` describe the member an invitation makes;
 * `userId` is the member a reset link is for.
 */
export const memberTokens = sqliteTable(
  "member_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["invitation", "password_reset"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "editor", "translator", "viewer"] }).notNull(),
    languages: text("languages").notNull().default("[]"),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdBy: integer("created_by"),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    usedAt: integer("used_at", { mode: "number" }),
    revokedAt: integer("revoked_at", { mode: "number" }),
  },
  (t) => [uniqueIndex("member_tokens_hash_unique").on(t.tokenHash), index("member_tokens_museum_idx").on(t.museumId, t.kind)],
);

/**
 * Who did what and when (0008, decision 043). Append-only through the product: no update or delete path
 * but the two-year prune. `actorEmail` is a snapshot; `target` names the object ("article:12", "user:3").
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "number" }).notNull(),
    actorId: integer("actor_id"),
    actorEmail: text("actor_email").notNull().default(""),
    action: text("action").notNull(),
    target: text("target").notNull().default(""),
    /** A short JSON object of what helps read the entry (names, languages, roles), never secrets. */
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [index("audit_log_museum_at_idx").on(t.museumId, t.at), index("audit_log_at_idx").on(t.at)],
);

/**
 * A segment's source text, once per museum, source language and hash (0014, decision 145): the memory and its
 * glossary check read it from here. Written before the memory rows that point at it; deleted with the last of them.
 */
export const translationSegments = sqliteTable(
  "translation_segments",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    sourceLang: text("source_lang").notNull(),
    sourceHash: text("source_hash").notNull(),
    sourceText: text("source_text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.sourceLang, t.sourceHash] })],
);

/** One translation of a segment into one language; WITHOUT ROWID, its source text in `translation_segments` (0014). */
export const translationMemory = sqliteTable(
  "translation_memory",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    sourceLang: text("source_lang").notNull(),
    sourceHash: text("source_hash").notNull(),
    targetLang: text("target_lang").notNull(),
    text: text("text").notNull(),
    origin: text("origin", { enum: ["machine", "edited"] }).notNull(),
    engine: text("engine").notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.sourceLang, t.sourceHash, t.targetLang] })],
);

// A visitor's request translating a segment now; others wait for its memory row (decision 019).
export const translationClaims = sqliteTable(
  "translation_claims",
  {
    museumId: integer("museum_id").notNull(),
    sourceLang: text("source_lang").notNull(),
    targetLang: text("target_lang").notNull(),
    sourceHash: text("source_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.sourceLang, t.targetLang, t.sourceHash] })],
);

// A segment whose translation failed lately, per museum and language pair: visitors get the original at
// once until `retry_at` (1 min doubling to 1 h) instead of paying an engine call per view (decision 030).
// `engines` is the engine list that failed: another list tries again at once. A success deletes the row.
export const translationFailures = sqliteTable(
  "translation_failures",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    sourceLang: text("source_lang").notNull(),
    targetLang: text("target_lang").notNull(),
    sourceHash: text("source_hash").notNull(),
    // The article whose view failed last (none for subtitles); no foreign key: informative only.
    articleId: integer("article_id"),
    engines: text("engines").notNull(),
    reason: text("reason", { enum: ["failed", "deadline", "glossary", "bound"] }).notNull(),
    detail: text("detail").notNull(),
    failures: integer("failures").notNull(),
    firstFailedAt: integer("first_failed_at", { mode: "number" }).notNull(),
    lastFailedAt: integer("last_failed_at", { mode: "number" }).notNull(),
    retryAt: integer("retry_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.museumId, t.sourceLang, t.targetLang, t.sourceHash] }),
    index("translation_failures_museum_idx").on(t.museumId, t.lastFailedAt),
  ],
);

export const qrcodes = sqliteTable(
  "qrcodes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    link: text("link").notNull(),
    articleId: integer("article_id").references(() => articles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("qrcodes_link_unique").on(t.link), index("qrcodes_museum_idx").on(t.museumId)],
);

export const scanEvents = sqliteTable(
  "scan_events",
  {
    // The event's UUID, minted by the app Worker: a redelivered message is counted once.
    id: text("id").primaryKey(),
    museumId: integer("museum_id").notNull(),
    articleId: integer("article_id").notNull(),
    lang: text("lang").notNull(),
    kind: text("kind", { enum: ["scan", "view"] }).notNull(),
    occurredAt: integer("occurred_at", { mode: "number" }).notNull(),
    /** The QR code scanned; null for a view from elsewhere (0004). */
    qrcodeId: integer("qrcode_id"),
    /** When the consumer counted it (0014): the row is pruned RAW_EVENT_RETENTION_DAYS later. WITHOUT ROWID. */
    receivedAt: integer("received_at", { mode: "number" }).notNull(),
  },
  (t) => [index("scan_events_received_idx").on(t.receivedAt)],
);

/** One counted visit, by the visitor's salted daily fingerprint; pruned about an hour after insertion (0006, decision 032). */
export const scanVisits = sqliteTable(
  "scan_visits",
  {
    fingerprint: text("fingerprint").notNull(),
    articleId: integer("article_id").notNull(),
    kind: text("kind", { enum: ["scan", "view"] }).notNull(),
    countedAt: integer("counted_at", { mode: "number" }).notNull(),
    insertedAt: integer("inserted_at", { mode: "number" }).notNull(),
  },
  (t) => [index("scan_visits_visitor_idx").on(t.fingerprint, t.articleId, t.kind, t.countedAt), index("scan_visits_inserted_idx").on(t.insertedAt)],
);

export const dailyStats = sqliteTable(
  "daily_stats",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    /** Days since 1970-01-01 in the museum's time zone (0014; app/lib/dates.ts dayNumber); WITHOUT ROWID. */
    day: integer("day").notNull(),
    articleId: integer("article_id").notNull(),
    lang: text("lang").notNull(),
    scans: integer("scans").notNull().default(0),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.day, t.articleId, t.lang] }), index("daily_stats_article_day_idx").on(t.museumId, t.articleId, t.day)],
);

export const media = sqliteTable(
  "media",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    r2Key: text("r2_key").notNull(),
    kind: text("kind", { enum: ["image", "video", "subtitles"] }).notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    // The article it was uploaded for, so purging an article finds its files; null = not tied to one.
    articleId: integer("article_id").references(() => articles.id, { onDelete: "set null" }),
    // Intrinsic size of images (null for other kinds and for files uploaded before it was recorded).
    width: integer("width"),
    height: integer("height"),
    createdAt: createdAt(),
    /** The file's name on the uploader's computer (0009, issue 20), shown by the editor; null before it was kept. */
    originalName: text("original_name"),
  },
  (t) => [uniqueIndex("media_r2_key_unique").on(t.r2Key), index("media_museum_idx").on(t.museumId), index("media_article_idx").on(t.articleId)],
);

// Staff reviews per article, language and segment position (decision 025): stale when the source changed.
export const translationReviews = sqliteTable(
  "translation_reviews",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    targetLang: text("target_lang").notNull(),
    segmentId: text("segment_id").notNull(),
    sourceHash: text("source_hash").notNull(),
    sourceText: text("source_text").notNull(),
    text: text("text").notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.targetLang, t.segmentId] }), index("translation_reviews_museum_idx").on(t.museumId)],
);

export const translationReports = sqliteTable(
  "translation_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    message: text("message").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    resolvedAt: integer("resolved_at", { mode: "number" }),
  },
  (t) => [index("translation_reports_article_idx").on(t.museumId, t.articleId, t.lang, t.resolvedAt)],
);

/** `targetLang` "" = never translated, in any language; else `translation` is the fixed one in that language. */
export const glossaryTerms = sqliteTable(
  "glossary_terms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    targetLang: text("target_lang").notNull().default(""),
    translation: text("translation").notNull().default(""),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("glossary_terms_unique").on(t.museumId, t.term, t.targetLang)],
);

/**
 * A tour (0009, issue 21): a path through the rooms, stop after stop. `link` is its printed code's address
 * `/t/{link}` (same alphabet and length as QR code links, unique across the host). `version` guards
 * concurrent edits (update_tour with a stale version → 409). `cover` is a `/media/…` image of the museum.
 */
export const tours = sqliteTable(
  "tours",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    link: text("link").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    cover: text("cover"),
    /** Estimated duration in minutes; null = not given. */
    minutes: integer("minutes"),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
    updatedBy: integer("updated_by"),
  },
  (t) => [uniqueIndex("tours_link_unique").on(t.link), index("tours_museum_idx").on(t.museumId)],
);

/**
 * The ordered stops of a tour: `position` 1, 2, … without gaps, rewritten whole by update_tour. The same
 * article may be in several tours (and twice in one). Purging an article removes its stops (cascade); a
 * trashed article's stop is skipped on the visitor side until it is restored.
 */
export const tourStops = sqliteTable(
  "tour_stops",
  {
    tourId: integer("tour_id")
      .notNull()
      .references(() => tours.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    museumId: integer("museum_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tourId, t.position] }), index("tour_stops_article_idx").on(t.articleId)],
);

/**
 * Tour statistics per museum day (0009, issue 21): `position` 0 counts the tour page's opens (`starts`:
 * opens from its printed code or a link), 1…n the views of each stop reached through the tour, so the
 * drop from one position to the next shows where visitors leave.
 */
export const tourDailyStats = sqliteTable(
  "tour_daily_stats",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    /** Days since 1970-01-01 in the museum's time zone (0014; app/lib/dates.ts dayNumber); WITHOUT ROWID. */
    day: integer("day").notNull(),
    tourId: integer("tour_id").notNull(),
    position: integer("position").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.day, t.tourId, t.position] }), index("tour_daily_stats_tour_idx").on(t.museumId, t.tourId, t.day)],
);

/**
 * Narrations (0010, issue 22, decision 091): one per article and language, recorded by staff (wins) or
 * generated by a speech engine from the text visitors read (`text_hash` + `voice` say which text).
 */
export const narrations = sqliteTable(
  "narrations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    kind: text("kind", { enum: ["recorded", "generated"] }).notNull(),
    r2Key: text("r2_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    durationMs: integer("duration_ms"),
    textHash: text("text_hash"),
    engine: text("engine"),
    voice: text("voice"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" })
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [
    uniqueIndex("narrations_article_lang_unique").on(t.articleId, t.lang),
    uniqueIndex("narrations_r2_key_unique").on(t.r2Key),
    index("narrations_museum_idx").on(t.museumId),
  ],
);

/** Who generates a narration right now (one request per text and voice; the claim expires if it dies). */
export const narrationClaims = sqliteTable(
  "narration_claims",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    museumId: integer("museum_id").notNull(),
    textHash: text("text_hash").notNull(),
    voice: text("voice").notNull(),
    token: text("token").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The last failure's message (no key, no address): no new try before `expires_at`. */
    failure: text("failure"),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.lang] })],
);

/**
 * Characters sent to speech engines per museum and UTC month 'YYYY-MM' (0012, decision 105): counted when
 * a generation is claimed (refunded when it fails), bounded by NARRATION_MONTHLY_CHARS.
 */
export const narrationSpend = sqliteTable(
  "narration_spend",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    chars: integer("chars").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.month] })],
);

/** Characters counted against each museum's monthly translation bound, per UTC month (0016, decision 148). */
export const translationSpend = sqliteTable(
  "translation_spend",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    chars: integer("chars").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.month] })],
);

/**
 * Visitors' questions about a work (0017, issue 34, decision 151): one row per question, nothing about who asked.
 * `topic` groups repeats; `status` is what staff did (open, answered, dismissed).
 */
export const visitorQuestions = sqliteTable(
  "visitor_questions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    lang: text("lang").notNull(),
    question: text("question").notNull(),
    sourceText: text("source_text").notNull(),
    topic: text("topic").notNull(),
    answered: integer("answered", { mode: "boolean" }).notNull().default(false),
    sent: integer("sent", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["open", "answered", "dismissed"] })
      .notNull()
      .default("open"),
  },
  (t) => [index("visitor_questions_topic").on(t.museumId, t.articleId, t.topic), index("visitor_questions_day").on(t.museumId, t.day)],
);

/** Answers composed for visitors per museum and UTC month (0017, decision 151), bounded by QUESTIONS_MONTHLY. */
export const questionSpend = sqliteTable(
  "question_spend",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    answers: integer("answers").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.month] })],
);

/** Characters and calls each museum sent to each engine, per UTC month and kind of work (0016, decision 148). */
export const engineUsage = sqliteTable(
  "engine_usage",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    kind: text("kind", { enum: ["translation", "narration", "easy_read", "questions"] }).notNull(),
    engine: text("engine").notNull(),
    chars: integer("chars").notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.month, t.kind, t.engine] })],
);

/**
 * Easy-to-read versions (0011, issue 22 §2, decision 094): one per article. `content` is the draft staff
 * edit (null while the first generation runs), guarded by `version`; visitors read `approved_content`
 * only. `source_hash` is the hash of the article's published text the draft was made from.
 */
export const easyReadVersions = sqliteTable(
  "easy_read_versions",
  {
    articleId: integer("article_id")
      .primaryKey()
      .references(() => articles.id, { onDelete: "cascade" }),
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    content: text("content"),
    version: integer("version").notNull().default(0),
    sourceHash: text("source_hash").notNull().default(""),
    engine: text("engine").notNull().default(""),
    generatedAt: integer("generated_at", { mode: "number" }),
    /** A generation under way until then (ms): parallel calls wait for it instead of calling the engine. */
    generatingUntil: integer("generating_until", { mode: "number" }),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
    updatedBy: integer("updated_by"),
    approvedContent: text("approved_content"),
    approvedVersion: integer("approved_version"),
    approvedSourceHash: text("approved_source_hash"),
    approvedAt: integer("approved_at", { mode: "number" }),
    approvedBy: integer("approved_by"),
  },
  (t) => [index("easy_read_versions_museum_idx").on(t.museumId)],
);

/** Visitors' opens of easy-to-read versions per museum day, article and reading language (0011, decision 096). */
export const easyReadDailyStats = sqliteTable(
  "easy_read_daily_stats",
  {
    museumId: integer("museum_id")
      .notNull()
      .references(() => museums.id, { onDelete: "cascade" }),
    /** Days since 1970-01-01 in the museum's time zone (0014; app/lib/dates.ts dayNumber); WITHOUT ROWID. */
    day: integer("day").notNull(),
    articleId: integer("article_id").notNull(),
    lang: text("lang").notNull(),
    opens: integer("opens").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.museumId, t.day, t.articleId, t.lang] })],
);

/**
 * When the visitor pages of a museum last changed (decision 132): one row per museum, written only by the
 * triggers of migration 0013 on the tables visitor pages read, read after a request that wrote one of them to
 * publish the museum's change stamp. No foreign key: a museum's deletion notes its last change here too.
 */
export const visitorChanges = sqliteTable(
  "visitor_changes",
  {
    museumId: integer("museum_id").primaryKey(),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [index("visitor_changes_at_idx").on(t.changedAt)],
);
