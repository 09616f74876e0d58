// /settings/tokens: the signed-in user's personal access tokens (issue 19): create one
// (its value shown once, with Copy), list them, revoke one after a confirmation.
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SiteHeader } from '../components/SiteHeader';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { showToast } from '../toast/toastStore';
import { CreateTokenForm } from '../tokens/CreateTokenForm';
import { NewTokenNotice } from '../tokens/NewTokenNotice';
import { TokenList } from '../tokens/TokenList';
import { listTokens, revokeToken, type AccessToken, type CreatedToken } from '../tokens/tokensApi';
import '../tokens/tokens.css';

function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

export default function TokensPage() {
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  useDocumentTitle('API tokens');

  const reload = useCallback(() => {
    listTokens()
      .then(setTokens)
      .catch((e: unknown) => {
        setTokens([]);
        showToast({ title: 'Error fetching tokens', text: failureText(e, 'Please try again'), type: 'error' });
      });
  }, []);

  useEffect(reload, [reload]);

  const onCreated = (token: CreatedToken) => {
    setCreated(token);
    const { token: _secret, ...listed } = token;
    setTokens((list) => [listed, ...(list ?? []).filter((t) => t.id !== token.id)]);
  };

  const revoke = async (token: AccessToken) => {
    setRevoking(null);
    try {
      await revokeToken(token.id);
      setTokens((list) => (list ?? []).filter((t) => t.id !== token.id));
      if (created?.id === token.id) setCreated(null);
      showToast({ title: `Token “${token.name}” revoked`, type: 'success' });
    } catch (e) {
      // Already gone (another tab): the list says what is left.
      if (e instanceof ApiError && e.status === 404) reload();
      else showToast({ title: 'Error revoking token', text: failureText(e, 'Please try again'), type: 'error' });
    }
  };

  return (
    <>
      <SiteHeader />
      <main className="page-container tokens-page">
        <h1>API tokens</h1>
        <p className="muted tokens-page__intro">
          A personal access token lets a script or an AI agent (the MCP server) call the API as you, with your roles.
          It only reads unless you give it write access. Revoke a token you no longer use.
        </p>
        {created && <NewTokenNotice token={created} onDone={() => setCreated(null)} />}
        <CreateTokenForm onCreated={onCreated} />
        <TokenList tokens={tokens} onRevoke={setRevoking} />
      </main>
      {revoking && (
        <ConfirmDialog
          title="Revoke token?"
          text={`“${revoking.name}” stops working at once, for every script that uses it.`}
          confirmLabel="Revoke"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        />
      )}
    </>
  );
}
