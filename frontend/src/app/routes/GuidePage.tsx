import { useEffect, useState } from "react";
import { Link, useLocation, useParams } from "react-router";
import { Markdown } from "../../components/Markdown";
import { Empty, Loading } from "../../components/States";

/** The documentation a page links to, served by the app itself (works offline, no GitHub). */
export const GUIDES: Record<string, () => Promise<string>> = {
  tuning: () => import("../../../../docs/tuning.md?raw").then((m) => m.default),
  presets: () => import("../../../../docs/presets.md?raw").then((m) => m.default),
  operations: () => import("../../../../docs/operations.md?raw").then((m) => m.default),
};

export function GuidePage() {
  const { name = "" } = useParams();
  const { hash } = useLocation();
  const [text, setText] = useState<string | null>(null);
  const load = GUIDES[name];
  useEffect(() => {
    let live = true;
    setText(null);
    void load?.().then((t) => live && setText(t));
    return () => { live = false; };
  }, [load]);
  useEffect(() => {
    if (text && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [text, hash]);
  if (!load) return <Empty>No such guide. Guides: {Object.keys(GUIDES).map((g) => <Link key={g} to={`/guide/${g}`}> {g}</Link>)}.</Empty>;
  if (text == null) return <Loading what="Loading the guide" />;
  return <article className="guide-page"><Markdown source={text} headingOffset={0} /></article>;
}
