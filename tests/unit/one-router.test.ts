import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Decision 136: every endpoint is a route module. The Worker's entry (workers/app.ts) hands every request to
// Remix and adds headers; the JSON calls that share a page's path (`POST /login`, `/invite/{token}`,
// `/reset/{token}`) are answered by those pages' actions. These tests read the code, so that a path answered
// in the Worker again fails here, whichever way it is matched. One thing may stand before Remix: the replay of
// a visitor page a route module answered a moment ago to the identical request (decision 141), which holds no
// path and can only give back a route's own answer.

const WORKER = "workers/app.ts";

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

/** The `fetch` method of the default export's object. */
function fetchHandler(file: ts.SourceFile): ts.MethodDeclaration {
  let found: ts.MethodDeclaration | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isExportAssignment(node)) {
      node.forEachChild(function find(child): void {
        if (ts.isMethodDeclaration(child) && child.name.getText(file) === "fetch") found = child;
        else child.forEachChild(find);
      });
    }
    node.forEachChild(visit);
  };
  visit(file);
  if (!found?.body) throw new Error(`no fetch handler in ${WORKER}`);
  return found;
}

function descendants(node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  node.forEachChild(function walk(child) {
    out.push(child);
    child.forEachChild(walk);
  });
  return out;
}

const stripAwait = (node: ts.Expression): ts.Expression => (ts.isAwaitExpression(node) ? stripAwait(node.expression) : node);
const callee = (node: ts.Expression, file: ts.SourceFile) => {
  const bare = stripAwait(node);
  return ts.isCallExpression(bare) ? bare.expression.getText(file) : null;
};

/** The one expression that may stand before Remix: a replayed answer, else Remix's (decision 141). */
const REPLAY_OR_REMIX = "replayed(request, loadContext) ?? (await handleRemixRequest(request, loadContext))";
const isReplayOrRemix = (node: ts.Node) =>
  ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && node.getText() === REPLAY_OR_REMIX;

describe("workers/app.ts answers no path itself", () => {
  const file = parse(WORKER);
  const handler = fetchHandler(file);
  const nodes = descendants(handler.body!);

  it("hands every request to Remix once, unless a route's own answer is replayed", () => {
    const calls = nodes.filter((n): n is ts.CallExpression => ts.isCallExpression(n) && n.expression.getText(file) === "handleRemixRequest");
    expect(calls).toHaveLength(1);
    // Between the call and the handler's body: no if, ?:, &&/||, switch or loop that could route around Remix,
    // but the replay's `??` (decision 141).
    for (let node: ts.Node = calls[0]!; node !== handler.body; node = node.parent) {
      if (isReplayOrRemix(node)) continue;
      expect(
        ts.isIfStatement(node) ||
          ts.isConditionalExpression(node) ||
          ts.isSwitchStatement(node) ||
          ts.isBinaryExpression(node) ||
          ts.isIterationStatement(node, false),
        `handleRemixRequest is called under ${ts.SyntaxKind[node.kind]}`,
      ).toBe(false);
    }
  });

  it("returns only Remix's response or the cross-site refusal, which no path decides", () => {
    const returns = nodes.filter(ts.isReturnStatement);
    expect(returns.length).toBeGreaterThan(0);
    for (const ret of returns) {
      const answered = ret.expression!;
      expect(callee(answered, file), ret.getText(file)).toBe("withSecurityHeaders");
      const [first] = (stripAwait(answered) as ts.CallExpression).arguments;
      const inner = first!.getText(file);
      expect(["response", "crossSiteRefusal()"], ret.getText(file)).toContain(inner);
    }
  });

  it("sets `response` only to Remix's answer, or to a copy of it with more headers", () => {
    const assignments = nodes.flatMap((n) => {
      if (ts.isVariableDeclaration(n) && n.name.getText(file) === "response") return [n.initializer!];
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && n.left.getText(file) === "response") return [n.right];
      return [];
    });
    expect(assignments.length).toBeGreaterThan(0);
    for (const value of assignments) {
      const text = value.getText(file);
      expect([REPLAY_OR_REMIX, "new Response(response.body, response)"], text).toContain(text);
    }
  });

  it("replays only what the visitor page kept: `replayed` is the replay module's", () => {
    const from = file.statements
      .filter(ts.isImportDeclaration)
      .find((d) => d.importClause?.namedBindings?.getText(file).includes("replayed"))
      ?.moduleSpecifier.getText(file);
    expect(from).toBe('"../app/visitor/replay/replay.server"');
    const replay = readFileSync("app/visitor/replay/replay.server.ts", "utf8");
    // It matches no path: what it gives back is found by the whole request's key, as a route module kept it.
    expect(replay).not.toMatch(/pathname|\/\^\\\//);
  });

  it("imports no route module and no JSON answer of the app", () => {
    const imports = file.statements.filter(ts.isImportDeclaration).map((d) => (d.moduleSpecifier as ts.StringLiteral).text);
    for (const from of imports) {
      expect(from, from).not.toMatch(/app\/routes\//);
      expect(from, from).not.toMatch(/login\.server|member-links\.server|own-answer\.server/);
    }
  });
});

describe("the pages whose path is also a JSON call", () => {
  it.each(["login.tsx", "invite.$token.tsx", "reset.$token.tsx"])("%s answers it in its action and has no error boundary of its own", (name) => {
    const source = readFileSync(`app/routes/${name}`, "utf8");
    const action = name === "login.tsx" ? source : readFileSync("app/utils/member-link-page.server.ts", "utf8");
    expect(action).toMatch(/if \(isApiCall\(request\)\) answerItself\(context, await json(Login|LinkPost)\(/);
    // The thrown answer must reach the root's boundary, above which no loader runs (app/utils/own-answer.server.ts).
    expect(source).not.toMatch(/ErrorBoundary/);
  });
});

describe("every staff page has the staff error boundary", () => {
  // A staff page: a route with a page (a default export) whose loader asks for a member (requireUser).
  const staffRoutes = readdirSync("app/routes")
    .filter((name) => name.endsWith(".tsx"))
    .map((name) => ({ name, source: readFileSync(`app/routes/${name}`, "utf8") }))
    .filter(({ source }) => source.includes("requireUser(") && /export default function/.test(source));

  it("finds the staff pages", () => {
    expect(staffRoutes.map((r) => r.name)).toEqual(
      expect.arrayContaining(["article.tsx", "articles.$.tsx", "audit.tsx", "team.tsx", "tours.$id.tsx", "trash.tsx"]),
    );
    expect(staffRoutes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(staffRoutes.map((r) => [r.name, r.source]))("%s", (_name, source) => {
    expect(source).toMatch(/export function ErrorBoundary\(\) \{\n {2}return <StaffErrorBoundary( subject="\w+")? \/>;\n\}/);
  });
});
