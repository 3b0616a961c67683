import { Center, Loader } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { consumeReferer, setTokenData } from './session';

// Single sign-on landing: the server redirects here with the token data in the query string.
export function AzureLandingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const username = params.get('username');
    if (!username) {
      navigate('/', { replace: true });
      return;
    }
    setTokenData({
      username,
      user_id: Number(params.get('id')),
      roles: (params.get('roles') ?? '')
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean),
      re_pwd: false,
      iat: Number(params.get('iat')),
      exp: Number(params.get('exp')),
    });
    navigate(consumeReferer(), { replace: true });
  }, [params, navigate]);

  return (
    <Center mih="100vh" data-testid="azure-landing">
      <Loader />
    </Center>
  );
}
