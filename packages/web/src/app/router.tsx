import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Outlet, type RouteObject, RouterProvider } from 'react-router';
import { AzureLandingPage } from '../features/auth/azure-landing-page';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { useSessionKeeper } from '../features/auth/use-session-keeper';
import { ErrorPage } from './error-page';
import { NotFoundPage } from './not-found-page';
import { RequireAuth, RequireEnvironment, UNKNOWN_PATH } from './route-guards';

function PageLoader() {
  return (
    <Center mih="100vh">
      <Loader />
    </Center>
  );
}

function RootLayout() {
  useSessionKeeper();
  return <Outlet />;
}

/** Every screen of the client; a link to a path no route here serves is not shown (built-routes.ts). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot_password', element: <ForgotPasswordPage /> },
      { path: '/reset_password/:token', element: <ResetPasswordPage /> },
      { path: '/azure', element: <AzureLandingPage /> },
      {
        element: <RequireAuth />,
        errorElement: <ErrorPage />,
        children: [
          {
            path: '/environment',
            lazy: async () => ({
              Component: (await import('../features/environments/environment-picker-page'))
                .EnvironmentPickerPage,
            }),
          },
          {
            element: <RequireEnvironment />,
            children: [
              {
                lazy: async () => ({ Component: (await import('./shell/main-shell')).MainShell }),
                children: [
                  {
                    // A screen that fails, or a path no screen serves, keeps the shell around its page.
                    errorElement: <ErrorPage />,
                    children: [
                      {
                        index: true,
                        lazy: async () => ({
                          Component: (await import('../features/dashboard/dashboard-page')).DashboardPage,
                        }),
                      },
                      {
                        path: '/fieldeditor/:id',
                        lazy: async () => ({
                          Component: (await import('../features/admin/field-designer-page'))
                            .FieldDesignerPage,
                        }),
                      },
                      {
                        path: '/datastructure',
                        lazy: async () => ({
                          Component: (await import('../features/admin/datastructure-pages'))
                            .DatastructurePage,
                        }),
                      },
                      {
                        path: '/datastructure/:id',
                        lazy: async () => ({
                          Component: (await import('../features/admin/datastructure-pages'))
                            .EntityStructurePage,
                        }),
                      },
                      {
                        path: '/defdossier/edit/:id',
                        lazy: async () => ({
                          Component: (await import('../features/admin/entity-edit-page')).EntityEditPage,
                        }),
                      },
                      {
                        path: '/querybuilder',
                        lazy: async () => ({
                          Component: (await import('../features/queries/query-list-page')).QueryListPage,
                        }),
                      },
                      {
                        path: '/querybuilder/:id',
                        lazy: async () => ({
                          Component: (await import('../features/queries/query-editor-page')).QueryEditorPage,
                        }),
                      },
                      {
                        path: '/defdossier/conditions/:id',
                        lazy: async () => ({
                          Component: (await import('../features/admin/conditions-page')).ConditionsPage,
                        }),
                      },
                      {
                        path: '/contentdossier/:id',
                        lazy: async () => ({
                          Component: (await import('../features/dossiers/dossier-detail-page'))
                            .DossierDetailPage,
                        }),
                      },
                      {
                        path: '/contentdossier/create/:id',
                        lazy: async () => ({
                          Component: (await import('../features/dossiers/dossier-create-page'))
                            .DossierCreatePage,
                        }),
                      },
                      {
                        path: '/defdossier/:id/massupdate',
                        lazy: async () => ({
                          Component: (await import('../features/dossiers/mass-update-page')).MassUpdatePage,
                        }),
                      },
                      {
                        path: '/defdossier/:id',
                        lazy: async () => ({
                          Component: (await import('../features/dossiers/list/dossier-list-page'))
                            .DossierListPage,
                        }),
                      },
                      {
                        path: '/environment/edit',
                        lazy: async () => ({
                          Component: (await import('../features/admin/environment-settings-pages'))
                            .EnvironmentEditPage,
                        }),
                      },
                      {
                        path: '/layout',
                        lazy: async () => ({
                          Component: (await import('../features/admin/environment-settings-pages'))
                            .LayoutPage,
                        }),
                      },
                      {
                        path: '/modules',
                        lazy: async () => ({
                          Component: (await import('../features/admin/environment-settings-pages'))
                            .ModulesPage,
                        }),
                      },
                      {
                        path: '/messages',
                        lazy: async () => ({
                          Component: (await import('../features/messages/messages-page')).MessagesPage,
                        }),
                      },
                      {
                        path: '/messages/:id',
                        lazy: async () => ({
                          Component: (await import('../features/messages/message-page')).MessagePage,
                        }),
                      },
                      {
                        path: '/security',
                        lazy: async () => ({
                          Component: (await import('../features/security/security-page')).SecurityPage,
                        }),
                      },
                      {
                        path: '/logs',
                        lazy: async () => ({
                          Component: (await import('../features/log/logs-page')).LogsPage,
                        }),
                      },
                      {
                        path: '/useractivity',
                        lazy: async () => ({
                          Component: (await import('../features/activity/user-activity-page'))
                            .UserActivityPage,
                        }),
                      },
                      {
                        path: '/blocks',
                        lazy: async () => ({
                          Component: (await import('../features/dashboard/blocks-page')).BlocksPage,
                        }),
                      },
                      {
                        path: '/blocks/:id',
                        lazy: async () => ({
                          Component: (await import('../features/dashboard/blocks-page')).BlockPage,
                        }),
                      },
                      {
                        path: '/roles',
                        lazy: async () => ({
                          Component: (await import('../features/admin/roles-page')).RolesPage,
                        }),
                      },
                      {
                        path: '/role/:id',
                        lazy: async () => ({
                          Component: (await import('../features/admin/role-edit-page')).RoleEditPage,
                        }),
                      },
                      {
                        path: '/permissions',
                        lazy: async () => ({
                          Component: (await import('../features/admin/permissions-page')).PermissionsPage,
                        }),
                      },
                      {
                        path: '/user',
                        lazy: async () => ({
                          Component: (await import('../features/admin/members/members-page')).MembersPage,
                        }),
                      },
                      {
                        path: '/erd',
                        lazy: async () => ({
                          Component: (await import('../features/admin/erd-page')).ErdPage,
                        }),
                      },
                      {
                        path: '/profile',
                        lazy: async () => ({
                          Component: (await import('../features/people/profile-page')).ProfilePage,
                        }),
                      },
                      {
                        path: '/colleagues',
                        lazy: async () => ({
                          Component: (await import('../features/people/colleagues-page')).ColleaguesPage,
                        }),
                      },
                      {
                        path: '/user/:id',
                        lazy: async () => ({
                          Component: (await import('../features/people/user-page')).UserPage,
                        }),
                      },
                      {
                        path: '/contact',
                        lazy: async () => ({
                          Component: (await import('../features/people/contact-page')).ContactPage,
                        }),
                      },
                      {
                        path: '/languages',
                        lazy: async () => ({
                          Component: (await import('../features/admin/languages-page')).LanguagesPage,
                        }),
                      },
                      {
                        path: '/subscriptions',
                        lazy: async () => ({
                          Component: (await import('../features/subscriptions/subscription-pages'))
                            .SubscriptionsPage,
                        }),
                      },
                      {
                        path: '/upgrade',
                        lazy: async () => ({
                          Component: (await import('../features/subscriptions/subscription-pages'))
                            .UpgradePage,
                        }),
                      },
                      {
                        path: '/order/:id',
                        lazy: async () => ({
                          Component: (await import('../features/subscriptions/subscription-pages')).OrderPage,
                        }),
                      },
                      { path: '*', element: <NotFoundPage />, handle: UNKNOWN_PATH },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
