import Foundation

/// A filter of ``TopHeadlinesQuery`` that a provider may take.
public enum QueryFilter: String, Sendable, CaseIterable {
  case country, category, query, sources, pageSize, page
}
