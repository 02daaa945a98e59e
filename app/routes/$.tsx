import { data, type MetaFunction } from "@remix-run/cloudflare";
import { NotFound } from "~/components/not-found";
import { pageMeta } from "~/utils/meta";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "notFound", { noindex: true });

export default function NotFoundRoute() {
  return <NotFound />;
}
