package dev.lakerewrite.eval.perturb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A small clean shop database for the disorganizer's tests: customers, orders and products with every column type
 * the disorganizer re-encodes (categories, exact numbers, dates, booleans) and foreign keys it must find in the
 * data (none are declared).
 */
public final class ShopDatabase {

  private ShopDatabase() {}

  public static Path create(Path file) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE customer AS SELECT i AS customer_id, 'Customer ' || i AS customer_name, "
          + "['retail', 'wholesale', 'online', 'government'][1 + i % 4] AS segment, "
          + "CAST(round((i * 37 % 1000) * 1.25, 2) AS DECIMAL(12,2)) AS account_balance, "
          + "DATE '2019-01-01' + CAST(i * 11 AS INTEGER) AS signup_date, i % 3 <> 0 AS active "
          + "FROM range(1, 61) t(i)");
      st.execute("CREATE TABLE product AS SELECT i AS product_id, 'Product ' || i AS product_name, "
          + "['tools', 'garden', 'kitchen'][1 + i % 3] AS category, CAST(i * 3 + 0.99 AS DECIMAL(10,2)) AS price "
          + "FROM range(1, 21) t(i)");
      st.execute("CREATE TABLE orders AS SELECT i AS order_id, 1 + (i * 7) % 60 AS customer_id, "
          + "1 + (i * 5) % 20 AS product_id, 1 + i % 9 AS quantity, "
          + "['open', 'shipped', 'returned'][1 + i % 3] AS order_status, "
          + "DATE '2020-01-01' + CAST(i * 3 AS INTEGER) AS order_date FROM range(1, 301) t(i)");
    }
    return file;
  }

  /** Queries of every shape over the shop. */
  public static List<SourceQuery> queries() {
    return List.of(
        SourceQuery.of("q01", "SELECT customer_name, account_balance FROM customer WHERE segment = 'online'"),
        SourceQuery.of("q02", "SELECT c.customer_name, o.order_date FROM orders o JOIN customer c "
            + "ON o.customer_id = c.customer_id WHERE o.order_status = 'returned' AND o.quantity > 7"),
        SourceQuery.of("q03", "SELECT segment, COUNT(*) AS customers, SUM(account_balance) AS total FROM customer "
            + "GROUP BY segment HAVING COUNT(*) > 5"),
        SourceQuery.of("q04", "SELECT product_name, price FROM product ORDER BY price DESC, product_id LIMIT 5"),
        SourceQuery.of("q05", "SELECT customer_name FROM customer WHERE account_balance > "
            + "(SELECT AVG(account_balance) FROM customer)"),
        SourceQuery.of("q06", "SELECT customer_name FROM customer c WHERE EXISTS (SELECT 1 FROM orders o "
            + "WHERE o.customer_id = c.customer_id AND o.order_status = 'open' AND o.quantity = 7)"),
        SourceQuery.of("q07", "SELECT product_name FROM product WHERE product_id IN (SELECT product_id FROM orders "
            + "WHERE order_date < DATE '2020-03-01')"),
        SourceQuery.of("q08", "WITH spend AS (SELECT customer_id, SUM(quantity) AS items FROM orders "
            + "GROUP BY customer_id) SELECT c.customer_name, s.items FROM customer c JOIN spend s "
            + "ON s.customer_id = c.customer_id WHERE s.items > 28"),
        SourceQuery.of("q09", "SELECT d.category, d.n FROM (SELECT category, COUNT(*) AS n FROM product "
            + "GROUP BY category) d WHERE d.n >= 6"),
        SourceQuery.of("q10", "SELECT customer_name FROM customer WHERE segment = 'retail' UNION "
            + "SELECT customer_name FROM customer WHERE active AND signup_date < DATE '2019-03-01'"),
        SourceQuery.of("q11", "SELECT a.customer_name, b.customer_name AS other FROM customer a JOIN customer b "
            + "ON a.segment = b.segment AND a.customer_id < b.customer_id WHERE a.customer_id = 3"),
        SourceQuery.of("q12", "SELECT COUNT(*) AS n FROM orders"),
        SourceQuery.of("q13", "SELECT * FROM product WHERE category = 'garden'"),
        SourceQuery.of("q14", "SELECT o.order_id, o.quantity FROM orders o WHERE o.quantity > "
            + "(SELECT AVG(o2.quantity) FROM orders o2 WHERE o2.product_id = o.product_id) AND o.order_id < 40"));
  }
}
