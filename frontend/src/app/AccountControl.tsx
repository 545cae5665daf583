import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ReactNode } from "react";
import { SIGN_IN_URL, signOut, useAccount } from "../lib/account/account";

/**
 * The header's account control on an instance that requires sign-in (docs/security.md): "Sign in"
 * when signed out; the account's name (and role, unless member) and "Sign out" when signed in.
 * Nothing on an anonymous, link-shared instance.
 */
export function AccountControl() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const a = account.data;
  if (!a || a.state === "off") return null;
  if (a.state === "signed-out") {
    return <div className="account"><a className="button small primary" href={SIGN_IN_URL}>Sign in</a></div>;
  }
  return (
    <div className="account">
      <span className="account-name" data-testid="account-name" title="Signed in">{a.name}</span>
      {a.role !== "member" && <span className="badge">{a.role}</span>}
      <button type="button" className="small" disabled={leaving}
        onClick={() => { setLeaving(true); void signOut(queryClient).finally(() => setLeaving(false)); }}>Sign out</button>
    </div>
  );
}

/** The pages, or, when the instance requires sign-in and nobody is signed in, a sign-in screen. */
export function SignInGate({ children }: { children: ReactNode }) {
  const account = useAccount();
  if (account.data?.state !== "signed-out") return <>{children}</>;
  return (
    <section className="sign-in-screen" aria-label="Sign in">
      <h1>Sign in to FabricTwin</h1>
      <p>This instance is shared by a team or a class: sign in with your organisation&apos;s account to see your work and the presets.</p>
      <p><a className="button primary" href={SIGN_IN_URL}>Sign in</a></p>
    </section>
  );
}
