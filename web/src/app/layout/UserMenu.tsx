import { Home, LogOut, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { displayName, LOGOUT_URL, type CurrentUser } from '@/features/auth/api';
import { wipeOfflineData } from '@/features/authenticator/offline-store';
import { signingOut } from '@/features/authenticator/vault/sign-out';
import { hardNavigate } from '@/lib/navigation';
import { userInitials } from './initials';

export function UserMenu({ user }: { user: CurrentUser }) {
  const name = displayName(user);
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label={`Account menu for ${name}`}>
          <Avatar className="size-8">
            {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
            <AvatarFallback>{userInitials(user)}</AvatarFallback>
          </Avatar>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <p className="truncate text-sm font-medium">{name}</p>
          {user.email && <p className="truncate text-xs text-muted-foreground">{user.email}</p>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/home">
            <Home aria-hidden="true" />
            Home
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings/email">
            <Mail aria-hidden="true" />
            E-mail settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          {/* A real navigation: the server ends the session and redirects to /. The authenticator
              vault is locked and its offline copy wiped first. */}
          <a
            href={LOGOUT_URL}
            onClick={(event) => {
              event.preventDefault();
              signingOut();
              void wipeOfflineData().finally(() => hardNavigate(LOGOUT_URL));
            }}
          >
            <LogOut aria-hidden="true" />
            Log out
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
