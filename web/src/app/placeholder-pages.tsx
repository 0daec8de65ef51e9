/**
 * Routes whose real page arrives later in this release. Each shows the "coming in this
 * release" state and says what it will hold. Replace the element in `routes.tsx` with the
 * feature's page (web/src/features/<name>/<Name>Page.tsx) when it lands.
 */
import {
  FileText,
  Newspaper,
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

