import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { NavLink, Outlet, Route, RouterProvider, createBrowserRouter, createRoutesFromElements, useLocation } from "react-router";
import { HomePage } from "./routes/HomePage";
import { EditorPage } from "./routes/EditorPage";
import { RunPage } from "./routes/RunPage";
import { SharePage } from "./routes/SharePage";
import { ComparePage } from "./routes/ComparePage";
import { SeedsPage } from "./routes/SeedsPage";
import { NewSweepPage, SweepPage } from "./routes/SweepPages";
import { NewTuningPage, TuningPage } from "./routes/TuningPages";
import { Empty } from "../components/States";
import { LabsPage } from "./routes/LabsPage";
import { GuidePage } from "./routes/GuidePage";
import { MeasurementPage } from "./routes/MeasurementPage";
import { LabDock } from "./LabDock";
import { AccountControl, SignInGate } from "./AccountControl";
import { useSignInAnnouncements } from "../lib/account/account";

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SignInAnnouncements>
        <RouterProvider router={router} />
      </SignInAnnouncements>
    </QueryClientProvider>
  );
}

/** Any API call answered 401 "sign in first" shows the sign-in screen (lib/account). */
function SignInAnnouncements({ children }: { children: ReactNode }) {
  useSignInAnnouncements(queryClient);
  return <>{children}</>;
}

/** Header, the page and the lab dock around every route. */
function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="app-header">
        <NavLink to="/" className="brand">FabricTwin</NavLink>
        <nav aria-label="Main">
          <NavLink to="/" end>Home</NavLink>
          <NavLink to="/editor">Editor</NavLink>
          <NavLink to="/labs">Labs</NavLink>
        </nav>
        <AccountControl />
      </header>
      <div className="app-body">
        {/* the page's one main landmark, where the skip link lands (focusable, so focus moves there) */}
        <main id="main" className="app-main" tabIndex={-1}>
          <SignInGate>
            <Outlet />
          </SignInGate>
        </main>
        <LabDock />
      </div>
    </>
  );
}

// A data router: the editor's unsaved-work prompt blocks every in-app navigation (useBlocker),
// the browser's back and forward buttons included.
const router = createBrowserRouter(createRoutesFromElements(
  <Route element={<Layout />}>
    <Route path="/" element={<HomePage />} />
    <Route path="/editor" element={<EditorRoute />} />
    <Route path="/runs/:id" element={<RunPage />} />
    <Route path="/compare" element={<ComparePage />} />
    <Route path="/seeds" element={<SeedsPage />} />
    <Route path="/sweeps/new" element={<NewSweepPage />} />
    <Route path="/sweeps/:id" element={<SweepPage />} />
    <Route path="/tunings/new" element={<NewTuningPage />} />
    <Route path="/tunings/:id" element={<TuningPage />} />
    <Route path="/measurements/:id" element={<MeasurementPage />} />
    <Route path="/s/:id" element={<SharePage />} />
    <Route path="/share/:id" element={<SharePage />} />
    <Route path="/labs" element={<LabsPage />} />
    <Route path="/guide/:name" element={<GuidePage />} />
    <Route path="*" element={<Empty>Page not found. <NavLink to="/">Back to the presets</NavLink></Empty>} />
  </Route>,
));

/** A new query string (another scenario, or "New fabric") starts a fresh editor. */
function EditorRoute() {
  const { search } = useLocation();
  return <EditorPage key={search} />;
}
