import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PlanCard } from './PlanCard';

function renderAt(path: string, ui: React.ReactNode) {
  return render(<MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>);
}

describe('PlanCard', () => {
  const plan = {
    titleId: 'plan-pro',
    name: 'Pro',
    tagline: 'For production.',
    badge: 'Most popular',
    price: '₹5,000',
    priceNotes: ['50,000 verifications', '₹0.10 each'],
    features: ['Webhooks', 'Auto-refill'],
    cta: { label: 'Get started', href: '/api/login' },
  };

  it('is a group named by the plan, with its figures, features and button', () => {
    renderAt('/', <PlanCard {...plan} featured={false} />);
    const card = screen.getByRole('group', { name: 'Pro' });
    expect(card).toHaveTextContent('For production.');
    expect(card).toHaveTextContent('₹5,00050,000 verifications₹0.10 each');
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Webhooks', 'Auto-refill']);
    expect(within(card).getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/api/login');
    expect(within(card).queryByText('Most popular')).toBeNull();
  });

  it('shows the badge only on the featured plan', () => {
    renderAt('/', <PlanCard {...plan} featured />);
    expect(within(screen.getByRole('group', { name: 'Pro' })).getByText('Most popular')).toBeInTheDocument();
  });
});
