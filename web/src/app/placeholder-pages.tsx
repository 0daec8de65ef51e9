/**
 * Routes whose real page arrives later in this release. Each shows the "coming in this
 * release" state and says what it will hold. Replace the element in `routes.tsx` with the
 * feature's page (web/src/features/<name>/<Name>Page.tsx) when it lands.
 */
import {
  BadgeIndianRupee,
  FileText,
  LayoutDashboard,
  Mail,
  Newspaper,
  ShieldEllipsis,
  UserCog,
  Users,
  Wallet,
} from 'lucide-react';
import { useParams } from 'react-router';
import { ComingSoonPage } from '@/components/ComingSoonPage';

export function BlogPlaceholder() {
  return (
    <ComingSoonPage
      icon={Newspaper}
      title="Blog"
      description="Articles on TOTP security, the cost of SMS codes, API integration and compliance."
      features={[
        'A featured article on TOTP vs SMS security',
        'All articles with category, read time and tags',
        'Full posts with related reading',
      ]}
    />
  );
}

export function BlogPostPlaceholder() {
  const { id } = useParams();
  return (
    <ComingSoonPage
      icon={FileText}
      title="Blog article"
      description={`The article${id ? ` “${id}”` : ''} will be readable here soon.`}
      features={['Author, date and read time', 'Sharing and copy-link buttons', 'Related articles']}
      backTo={{ label: 'Back to the blog', to: '/blog' }}
    />
  );
}

export function PaymentMethodsPlaceholder() {
  return (
    <ComingSoonPage
      icon={Wallet}
      title="Payment methods"
      description="How to buy verification credits: bank transfer and UPI, with card payments to follow."
      features={['Bank transfer and UPI top-ups', 'Processing times and business hours', 'Top-up packs from ₹5,000']}
    />
  );
}

export function ContactPlaceholder() {
  return (
    <ComingSoonPage
      icon={Mail}
      title="Contact support"
      description="Reach the right team for technical questions, payments and refunds."
      features={[
        'Technical questions answered at once by Luna AI',
        'Payment issues reviewed within 2–4 hours',
        'Refund requests reviewed by an administrator',
      ]}
    />
  );
}

export function AdminSetupPlaceholder() {
  return (
    <ComingSoonPage
      icon={ShieldEllipsis}
      title="Admin security setup"
      description="Authenticator-app MFA for the system administrator, required for every admin operation."
      features={['MFA status overview', 'MFA setup with a QR code', 'Code verification valid for 30 minutes', 'Links to the admin tools']}
    />
  );
}

export function AdminDashboardPlaceholder() {
  return (
    <ComingSoonPage
      icon={LayoutDashboard}
      title="Admin dashboard"
      description="Users, API keys, verifications and revenue at a glance."
      features={['Headline statistics', 'Payments awaiting approval', 'Service status', 'Recent activity']}
      backTo={{ label: 'Back to admin setup', to: '/admin' }}
    />
  );
}

export function AdminPaymentsPlaceholder() {
  return (
    <ComingSoonPage
      icon={BadgeIndianRupee}
      title="Payment approvals"
      description="Review bank and UPI payments and credit the customer's account."
      features={['Pending approvals and totals', 'Review with bank details and notes', 'Approve or reject with a reason']}
      backTo={{ label: 'Back to admin setup', to: '/admin' }}
    />
  );
}

export function AdminImpersonationPlaceholder() {
  return (
    <ComingSoonPage
      icon={Users}
      title="User impersonation"
      description="See the product as a customer sees it, with payments disabled and every action logged."
      features={['Search users by e-mail, business or ID', 'Start and stop an impersonation session', 'A banner while a session is active']}
      backTo={{ label: 'Back to admin setup', to: '/admin' }}
    />
  );
}

export function AdminRolesPlaceholder() {
  return (
    <ComingSoonPage
      icon={UserCog}
      title="Role management"
      description="Assign and remove the Financial Manager role."
      features={['Assign by e-mail', 'Remove by e-mail', 'The role hierarchy explained']}
      backTo={{ label: 'Back to admin setup', to: '/admin' }}
    />
  );
}

