import { can, canReviewLanguage, limitedLanguages, type Member } from "~/teams/roles";
import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LanguageReview } from "~/components/translations/language-review";
import { LanguagesOverview } from "~/components/translations/languages-overview";
import { isDomainError, notFound } from "~/errors";
import { getMuseum } from "~/models/museums.server";
import { langSchema } from "~/models/translation-input";
import { listTranslationLanguages, readTranslation } from "~/models/translation-review.server";
import { articleIdSchema } from "~/models/tree-input";
import { readArticle } from "~/models/tree.server";
import translationsStyles from "~/styles/translations.css?url";
import { subtitleReader } from "~/translation/catalogue.server";
import { pageMeta } from "~/utils/meta";
import { orPageError, refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { orArticlePageError } from "~/utils/trashed-page.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "translations", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: translationsStyles }];

/**
 * `/translations?id=` (every language of the article) and `?id=&lang=` (one language side by side). A
 * missing, malformed or another museum's id, or an unknown language, is the not-found page; the
 * article's own language has nothing to review and goes back to the list.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "translations.review");
  const search = new URL(request.url).searchParams;
  const id = articleIdSchema.safeParse(search.get("id") ?? undefined);
  if (!id.success) refusePage(notFound("Article", "id"));
  const rawLang = search.get("lang");
  const lang = rawLang === null ? null : langSchema.safeParse(rawLang);
  if (lang && !lang.success) refusePage(notFound("Language", "lang"));

  const [article, museum] = await Promise.all([
    orArticlePageError(context, user.museumId, id.data, readArticle(context.db, user.museumId, id.data)),
    getMuseum(context.db, user.museumId),
  ]);
  if (!museum) refusePage(notFound("Museum"));
  const member: Member = { role: user.role, languages: user.languages };
  const head = {
    article: { id: article.id, name: article.unformatted_name },
    sourceLang: museum.sourceLang,
    timeZone: museum.timezone,
    member,
  };
  const readSubtitles = subtitleReader(context.db, context.media, user.museumId);
  const listLanguages = () => orPageError(listTranslationLanguages(context.db, user.museumId, article.id, readSubtitles, limitedLanguages(member) ?? []));

  if (!lang) {
    const { languages, total } = await listLanguages();
    return { ...head, total, languages, translation: null, refused: null };
  }
  if (!canReviewLanguage(member, lang.data)) {
    // Not one of this translator's languages: 403, with the article's languages and the ones they may review named (decision 123).
    const { languages, total } = await listLanguages();
    return data({ ...head, total, languages, translation: null, refused: lang.data }, { status: 403 });
  }
  try {
    const translation = await readTranslation(context.db, user.museumId, article.id, lang.data, readSubtitles);
    return { ...head, total: 0, languages: null, translation, refused: null };
  } catch (error) {
    if (isDomainError(error) && error.reason === "source_language") throw redirect(`/translations?id=${article.id}`);
    return orPageError(Promise.reject(error));
  }
}

export default function Translations() {
  const { article, sourceLang, timeZone, total, languages, translation, member, refused } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // A translator reads articles through the tree and may correct only their languages (decision 040).
  const canEdit = can(member, "content.edit");
  const canReview = (lang: string) => canReviewLanguage(member, lang);
  return (
    <section className="page translations">
      {translation ? (
        <Link to={`/translations?id=${article.id}`} className="button button--ghost translations__back">
          <span aria-hidden="true">←</span> {t("translations.backToLanguages")}
        </Link>
      ) : canEdit ? (
        <Link to={`/article?id=${article.id}`} className="button button--ghost translations__back">
          <span aria-hidden="true">←</span> {t("translations.backToEditor")}
        </Link>
      ) : (
        <Link to="/articles" className="button button--ghost translations__back">
          <span aria-hidden="true">←</span> {t("team.backToArticles")}
        </Link>
      )}
      {translation ? (
        <LanguageReview key={`${article.id}:${translation.lang}`} article={article} translation={translation} timeZone={timeZone} />
      ) : (
        <LanguagesOverview
          article={article}
          sourceLang={sourceLang}
          total={total}
          languages={languages ?? []}
          timeZone={timeZone}
          canEdit={canEdit}
          canReview={canReview}
          limitedTo={limitedLanguages(member)}
          refused={refused}
        />
      )}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="article" />;
}
