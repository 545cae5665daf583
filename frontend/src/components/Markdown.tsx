// Markdown (lab texts, the docs the app serves) through react-markdown with GitHub tables
// (remark-gfm). Raw HTML in the source is never rendered, and unsafe link schemes are dropped.
import type { ComponentProps, ReactNode } from "react";
import ReactMarkdown, { defaultUrlTransform, type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

type Level = 1 | 2 | 3 | 4 | 5 | 6;

function heading(shift: number, level: Level) {
  const Tag = `h${Math.min(6, level + shift)}` as "h2";
  return ({ children, id }: { children?: ReactNode; id?: string }) => <Tag id={id}>{children}</Tag>;
}

/** Links to another doc the app serves (tuning.md, docs/presets.md) open its /guide page. */
export function guideHref(href: string): string {
  const doc = /^(?:\.\.?\/)*(?:docs\/)?([a-z0-9-]+)\.md(#[\w-]*)?$/.exec(href);
  return doc ? `/guide/${doc[1]}${doc[2] ?? ""}` : href;
}

export function Markdown({ source, headingOffset = 1 }: { source: string; headingOffset?: number }) {
  const components: Components = {
    h1: heading(headingOffset, 1), h2: heading(headingOffset, 2), h3: heading(headingOffset, 3),
    h4: heading(headingOffset, 4), h5: heading(headingOffset, 5), h6: heading(headingOffset, 6),
    a: ({ href, children }: ComponentProps<"a">) => {
      const to = href ? guideHref(href) : "#";
      return <a href={to} target={to.startsWith("http") ? "_blank" : undefined} rel="noreferrer">{children}</a>;
    },
  };
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} skipHtml
        urlTransform={(url) => (defaultUrlTransform(url) || "#")}>{source}</ReactMarkdown>
    </div>
  );
}
