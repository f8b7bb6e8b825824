import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';

type Account = paths['/operator/ledger/trial-balance']['get']['responses'][200]['content']['application/json']['data']['currencies'][number]['accounts'][number];

/** The ledger: whether it balances and agrees with the records, and a month's trial balance per currency. */
export function OperatorLedger() {
  const { t, has, money, month: monthWords } = useMessages();
  /** An account by whose it is and what it holds: "Acme: commissions not yet billed". */
  const accountName = (a: Account): string => {
    const key = `operator.ledger.account.${a.holder.kind}.${a.purpose}`;
    return has(key) ? t(key, { name: a.holder.name ?? a.holder.id ?? '' }) : a.account;
  };
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const check = useQuery({ queryKey: ['operator-ledger-check'], queryFn: async () => ok(await api.GET('/operator/ledger/check')).data });
  const report = useQuery({
    queryKey: ['operator-trial-balance', month],
    queryFn: async () => ok(await api.GET('/operator/ledger/trial-balance', { params: { query: { month } } })).data,
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('operator.ledger.title')}</h1>
      <h2>{t('operator.ledger.check')}</h2>
      <QueryState query={check}>
        {(result) =>
          result.balanced ? (
            <p role="status">{t('operator.ledger.balanced')}</p>
          ) : (
            <>
              <p role="alert" class="error">
                {t('operator.ledger.differences', { count: result.differences.length })}
              </p>
              <ul>
                {result.differences.map((d) => (
                  <li key={d} class="code">
                    {d}
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </QueryState>
      <h2>{t('operator.ledger.trialBalance')}</h2>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          setMonth(fieldText(e.currentTarget, 'month'));
        }}
      >
        <div class="field">
          <label for="ledger-month">{t('operator.statements.month')}</label>
          <input id="ledger-month" name="month" type="month" required defaultValue={month} />
        </div>
        <button type="submit">{t('operator.members.show')}</button>
      </form>
      <QueryState query={report}>
        {(balance) =>
          balance.currencies.length === 0 ? (
            <p>{t('operator.ledger.empty')}</p>
          ) : (
            <>
              {balance.currencies.map(({ currency, accounts }) => (
                <table key={currency} aria-label={t('operator.ledger.of', { currency, month: monthWords(balance.month) })}>
                  <caption>{t('operator.ledger.of', { currency, month: monthWords(balance.month) })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('operator.ledger.account')}</th>
                      <th scope="col">{t('operator.ledger.opening')}</th>
                      <th scope="col">{t('operator.ledger.debit')}</th>
                      <th scope="col">{t('operator.ledger.credit')}</th>
                      <th scope="col">{t('operator.ledger.closing')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {accounts.map((a) => (
                      <tr key={a.account} data-testid={`account-${a.account}`}>
                        <th scope="row">{accountName(a)}</th>
                        <td>{money(a.opening, currency)}</td>
                        <td>{money(a.debit, currency)}</td>
                        <td>{money(a.credit, currency)}</td>
                        <td>{money(a.closing, currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ))}
            </>
          )
        }
      </QueryState>
    </>
  );
}
