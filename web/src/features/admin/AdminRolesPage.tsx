import { useId, useState, type FormEvent } from 'react';
import { Bot, Crown, Landmark, ShieldX, User, UserMinus, UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api';
import { ApiError } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAdminRoles, useAssignFinancialManager, useRemoveFinancialManager } from './api';
import { GateCard } from '@/components/GateCard';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

export const ADMIN_ACCESS_REQUIRED = 'Admin Access Required - Only the system administrator can manage user roles.';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SPEC §5: the assign form checks the address before sending; remove only checks it is there. */
export function assignProblem(email: string): { title: string; description: string } | null {
  const trimmed = email.trim();
  if (!trimmed) return { title: 'Email Required', description: 'Please enter a valid email address' };
  if (!EMAIL.test(trimmed)) return { title: 'Invalid Email', description: 'Please enter a valid email address' };
  return null;
}

export function AdminRolesPage() {
  useDocumentTitle('Role management · Sixdigit');
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner label="Loading" />;
  if (!user?.isAdmin) {
    return (
      <GateCard icon={ShieldX} title="Admin Access Required" alert>
        <p className="text-sm">{ADMIN_ACCESS_REQUIRED.replace('Admin Access Required - ', '')}</p>
      </GateCard>
    );
  }
  return (
    <AdminGate>
      <Roles />
    </AdminGate>
  );
}

const HIERARCHY = [
  { icon: Crown, name: 'Admin', text: 'The one ADMIN_EMAIL account, behind authenticator-app MFA: roles, payments, impersonation, businesses, audit.' },
  { icon: Landmark, name: 'Financial Manager', text: 'Verifies bank payments, approves or rejects top-ups, answers payment messages, escalates to Luna or the admin.' },
  { icon: Bot, name: 'Luna AI', text: 'Automated technical support: answers integration questions and technical contact messages.' },
  { icon: User, name: 'Regular Users', text: 'Their own authenticator, account TOTP and business dashboard.' },
];

function Roles() {
  const roles = useAdminRoles();
  return (
    <AdminPage title="Role management" description="Give people the Financial Manager role, or take it away (access ends at once).">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-base">
              <Crown className="size-4 text-primary" aria-hidden="true" />
              Administrator
            </CardTitle>
            <CardDescription>Set by ADMIN_EMAIL in the server's configuration; it cannot be given to anyone else.</CardDescription>
          </CardHeader>
          <CardContent className="text-sm font-medium break-all">{roles.data?.admin.email ?? '…'}</CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Financial Managers</CardTitle>
          </CardHeader>
          <CardContent className="text-sm">
            {roles.isPending ? (
              <Spinner label="Loading" />
            ) : roles.isError ? (
              <AdminLoadError error={roles.error} what="the roles" onRetry={() => void roles.refetch()} />
            ) : roles.data.financialManagers.length === 0 ? (
              <p className="text-muted-foreground">Nobody has the role yet.</p>
            ) : (
              <ul className="divide-y" aria-label="Financial Managers">
                {roles.data.financialManagers.map((fm) => (
                  <li key={fm.id} className="py-2 break-all">
                    <span className="font-medium">{fm.email}</span>
                    {fm.name && fm.name !== fm.email && <span className="text-muted-foreground"> · {fm.name}</span>}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <RoleForm kind="assign" />
        <RoleForm kind="remove" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Role hierarchy</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="grid gap-3 sm:grid-cols-2">
            {HIERARCHY.map(({ icon: Icon, name, text }) => (
              <li key={name} className="flex gap-3 rounded-md border p-3 text-sm">
                <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                <span>
                  <span className="block font-medium">{name}</span>
                  <span className="text-muted-foreground">{text}</span>
                </span>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
    </AdminPage>
  );
}

function RoleForm({ kind }: { kind: 'assign' | 'remove' }) {
  const assign = useAssignFinancialManager();
  const remove = useRemoveFinancialManager();
  const mutation = kind === 'assign' ? assign : remove;
  const [email, setEmail] = useState('');
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = kind === 'assign' ? assignProblem(email) : email.trim() ? null : { title: 'Email Required', description: 'Please enter a valid email address' };
    if (problem) {
      toast({ variant: 'destructive', ...problem });
      return;
    }
    mutation.mutate(email.trim(), {
      onSuccess: ({ user }) => {
        setEmail('');
        toast(
          kind === 'assign'
            ? { title: 'Financial Manager Assigned', description: `${user.email} now has Financial Manager access` }
            : { title: 'Role Removed', description: `Financial Manager access removed from ${user.email}` },
        );
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: kind === 'assign' ? 'Assignment Failed' : 'Removal Failed',
          description: error instanceof ApiError && error.serverMessage ? error.serverMessage : kind === 'assign' ? 'Failed to assign Financial Manager role' : 'Failed to remove Financial Manager role',
        }),
    });
  }

  const Icon = kind === 'assign' ? UserPlus : UserMinus;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Icon className="size-4 text-primary" aria-hidden="true" />
          {kind === 'assign' ? 'Assign Financial Manager' : 'Remove Financial Manager'}
        </CardTitle>
        <CardDescription>{kind === 'assign' ? 'The person must have signed in once.' : 'Their desk access ends at once.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <div className="flex-1 space-y-1">
            <Label htmlFor={id}>E-mail</Label>
            <Input id={id} type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="person@company.com" />
          </div>
          <Button type="submit" variant={kind === 'assign' ? 'default' : 'outline'} disabled={mutation.isPending}>
            {mutation.isPending && <Spinner label="Saving" />}
            {kind === 'assign' ? 'Assign' : 'Remove'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
