import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ArticleEditor } from "~/components/editor/article-editor";
import { contentStylesheetUrl } from "~/content/stylesheet";
import { notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import { readArticle } from "~/models/tree.server";
import editorStylesheetUrl from "~/styles/editor.css?url";
import { pageMeta } from "~/utils/meta";
import { orPageError, refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "editor", { noindex: true });

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: contentStylesheetUrl },
  { rel: "stylesheet", href: editorStylesheetUrl },
];

/** `/article?id=`: a missing, malformed, another museum's or trashed id is the not-found page, never a 500. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const parsed = articleIdSchema.safeParse(new URL(request.url).searchParams.get("id") ?? undefined);
  if (!parsed.success) refusePage(notFound("Article", "id"));
  const { pathArray, ...article } = await orPageError(readArticle(context.db, user.museumId, parsed.data));
  return { article, museumSlug: user.museumSlug, pathArray };
}

export default function ArticleEditorRoute() {
  const { article, museumSlug, pathArray } = useLoaderData<typeof loader>();
  return <ArticleEditor key={article.id} article={article} museumSlug={museumSlug} pathArray={pathArray} />;
}
