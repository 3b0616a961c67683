import { useParams } from 'react-router';
import { NotFoundPage } from '../../app/not-found-page';
import { MemberPage } from '../admin/members/member-page';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';
import { ColleagueProfile } from './colleague-profile';

/**
 * /user/{id}: the environment's admins get the member page, where they change the member's roles,
 * credentials and access; every other member sees the colleague's read-only profile.
 */
export function UserPage() {
  const environment = useEnvironment();
  const { id } = useParams();
  if (isEnvironmentAdmin(environment)) return <MemberPage />;
  const userId = Number(id);
  if (!/^\d{1,10}$/.test(id ?? '') || userId < 1) return <NotFoundPage />;
  return <ColleagueProfile userId={userId} />;
}
