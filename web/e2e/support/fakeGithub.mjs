// A stand-in for GitHub's OAuth and user API, so e2e users can sign in with a name and
// login of their own (email sign-in makes accounts without either). docsd is pointed
// at it with `fake.env`; each sign-in takes the next profile queued with `next()`.
import { createServer } from 'node:http';

function readBody(request) {
  return new Promise((resolve, reject) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

export async function startFakeGithub() {
  const queued = [];
  const codes = new Map();
  const tokens = new Map();
  let serial = 0;
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://fake-github');
    const json = (status, body) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    // the browser arrives here from docsd; the person "approves" at once
    if (url.pathname === '/login/oauth/authorize') {
      const profile = queued.shift();
      if (!profile) return json(500, { message: 'no profile queued for this sign-in' });
      const code = `code-${++serial}`;
      codes.set(code, profile);
      const back = new URL(url.searchParams.get('redirect_uri'));
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { Location: back.toString() });
      return response.end();
    }
    // docsd's own calls: the code for a token, then the user and the emails
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const code = new URLSearchParams(await readBody(request)).get('code');
      const profile = codes.get(code);
      codes.delete(code);
      if (!profile) return json(200, { error: 'bad_verification_code' });
      const token = `token-${++serial}`;
      tokens.set(token, profile);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const profile = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!profile) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return json(200, { id: profile.id, login: profile.login, name: profile.name, avatar_url: null });
    if (url.pathname === '/user/emails') return json(200, [{ email: profile.email, primary: true, verified: true, visibility: 'private' }]);
    return json(404, { message: 'Not Found' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  let ids = 5000;
  return {
    url,
    /** docsd's configuration for this fake */
    env: { DOCS_GITHUB_CLIENT_ID: 'e2e-client', DOCS_GITHUB_CLIENT_SECRET: 'e2e-secret', DOCS_GITHUB_URL: url, DOCS_GITHUB_API_URL: url },
    /** The profile the next sign-in gets ({login, name, email}); answers it with its id. */
    next(profile) {
      const full = { id: ++ids, ...profile };
      queued.push(full);
      return full;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
